import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** An API running in its own process, as an operator runs it. */
export interface ApiChildProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything it wrote to stdout and stderr so far (pino JSON lines and the start banner). */
  readonly output: () => string;
  /** Sends `signal` (SIGTERM by default) and waits for the exit; nothing when it already ended. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `node <args>` in `cwd` with exactly `environment` (plus PATH, and a free port on 127.0.0.1):
 * nothing of the test runner's environment leaks in (no NODE_OPTIONS with a loader). Resolves with
 * the URL the API prints once it listens; rejects with its output when it exits before that.
 */
export async function spawnApi(
  args: readonly string[],
  cwd: string,
  environment: Record<string, string>,
): Promise<ApiChildProcess> {
  const child = spawn(process.execPath, [...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: '0', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the API exited with ${code} before listening (node ${args.join(' ')}):\n${output}`));
    child.once('exit', onExit);
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) {
        child.off('exit', onExit);
        resolve(match[1]);
      }
    });
  });
  return {
    child,
    url,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
