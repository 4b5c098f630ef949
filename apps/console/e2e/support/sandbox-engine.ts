import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, stopProcess, waitForExit, type Started } from './processes';

/** The offline base image the API's sandbox image is built FROM in the browser tests. */
const baseImage = 'agentdesk-console-e2e-base:local';

export interface SandboxEngine {
  process: Started;
  /** The engine's folder: dockerd's socket, data root and pidfile. */
  directory: string;
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
  let dockerHost: string;
  try {
    dockerHost = await readyLine(engine);
  } catch (error) {
    stopProcess(engine);
    throw error;
  }
  return {
    process: engine,
    directory,
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

/**
 * Stops the engine process, which stops its daemon and deletes its folder — and, when that did not
 * happen (a CI run left this dockerd running after the tests, with no SIGTERM in its log: the
 * engine process was gone before the teardown), stops the daemon by its pidfile and says so.
 */
export async function stopSandboxEngine(engine: SandboxEngine): Promise<void> {
  stopProcess(engine.process);
  // The engine gives dockerd 20 s after SIGTERM before SIGKILL, then unmounts and deletes.
  await waitForExit(engine.process, 60_000);
  const pid = daemonPid(engine.directory);
  if (pid !== undefined && isRunning(pid)) {
    const exit = engine.process.child.exitCode ?? engine.process.child.signalCode ?? 'still running';
    console.error(
      `console e2e teardown: the sandbox engine (exit: ${exit}) left dockerd ${pid} running in ${engine.directory}; stopping it. The engine's last output:\n${engine.process.output().slice(-2_000)}`,
    );
    await stopDaemon(pid);
  }
  rmSync(engine.directory, { recursive: true, force: true });
}

function daemonPid(directory: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(directory, 'dockerd.pid'), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL when it still runs after 200 probes of 100 ms (dockerd stops its containers first). */
async function stopDaemon(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  for (let probe = 0; probe < 200 && isRunning(pid); probe += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (isRunning(pid)) {
    console.error(`console e2e teardown: dockerd ${pid} still ran 200 probes after SIGTERM; killing it`);
    process.kill(pid, 'SIGKILL');
  }
}
