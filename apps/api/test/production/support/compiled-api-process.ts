import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A compiled API started with plain `node` (no loader, no tsx), as in production. */
export interface CompiledApiProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * `node <mainJs>` in `cwd` with exactly `environment` (plus PATH): nothing of the test runner's
 * environment leaks in (no NODE_OPTIONS with a loader). Resolves with the URL it prints.
 */
export async function startCompiledApi(
  mainJs: string,
  cwd: string,
  environment: Record<string, string>,
): Promise<CompiledApiProcess> {
  const child = spawn(process.execPath, [mainJs], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: '0', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the compiled API exited with ${code} before listening:\n${output}`));
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
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
