import { join } from 'node:path';
import { startProcess, type Started } from './processes';

/** The offline base image the API's sandbox image is built FROM in the browser tests. */
const baseImage = 'agentdesk-console-e2e-base:local';

export interface SandboxEngine {
  process: Started;
  /** The API's sandbox settings for this engine (see apps/api/test/support/sandbox-environment.ts). */
  apiEnvironment: Record<string, string>;
}

/**
 * A private Docker engine for the API under test, started by libs/sandbox's engine CLI (the
 * console is browser code: it runs the server library as a process, it does not import it).
 * Stopping the process stops the daemon and deletes its folder.
 */
export async function startSandboxEngine(
  workspaceRoot: string,
  tsx: string,
  directory: string,
  env: NodeJS.ProcessEnv,
): Promise<SandboxEngine> {
  const engine = startProcess(
    'sandbox engine',
    tsx,
    ['libs/sandbox/src/local-engine/engine-cli.ts', '--directory', directory, '--base-image', baseImage],
    { cwd: workspaceRoot, env },
  );
  const dockerHost = await readyLine(engine);
  return {
    process: engine,
    apiEnvironment: {
      AGENTDESK_SANDBOX_ENABLED: 'true',
      DOCKER_HOST: dockerHost,
      AGENTDESK_SANDBOX_IMAGE: 'agentdesk-console-e2e:latest',
      AGENTDESK_SANDBOX_BASE_IMAGE: baseImage,
      AGENTDESK_SANDBOX_OFFLINE_BASE: 'true',
      AGENTDESK_SANDBOX_OWNER: `console-e2e-${join(directory).split('/').pop() ?? 'engine'}`,
      AGENTDESK_SANDBOX_WARM_POOL: '1',
      AGENTDESK_SANDBOX_MEMORY_MB: '64',
      AGENTDESK_SANDBOX_PIDS: '64',
      AGENTDESK_SANDBOX_CPUS: '0.5',
      AGENTDESK_SANDBOX_WORKSPACE_MB: '16',
    },
  };
}

/** Waits for `engine-ready <DOCKER_HOST>`; fails with the process's output if it exits first. */
async function readyLine(engine: Started, attempts = 1200): Promise<string> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const ready = /^engine-ready (\S+)$/m.exec(engine.output());
    if (ready?.[1] !== undefined) return ready[1];
    if (engine.child.exitCode !== null)
      throw new Error(`the sandbox engine exited (${engine.child.exitCode}):\n${engine.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the sandbox engine did not start in time:\n${engine.output()}`);
}
