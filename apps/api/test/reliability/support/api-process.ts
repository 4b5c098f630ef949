import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const main = join(workspace, 'apps/api/src/main.ts');

/** A real API process (`node --import tsx apps/api/src/main.ts`), as an operator runs it. */
export interface ApiProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything it wrote to stdout and stderr so far (pino JSON lines and the start banner). */
  readonly output: () => string;
}

/** Starts the API with this environment (on a free port) and waits for its URL. */
export async function startApiProcess(environment: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: workspace,
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`the API exited with ${code} before listening:\n${output}`));
    child.once('exit', onExit);
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) {
        child.off('exit', onExit);
        resolve(match[1]);
      }
    });
  });
  return { child, url, output: () => output };
}

/** Sends `signal` and waits for the exit; nothing when the process already ended. */
export async function stopApiProcess(api: ApiProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!api || api.child.exitCode !== null || api.child.signalCode !== null) return;
  const exited = once(api.child, 'exit');
  api.child.kill(signal);
  await exited;
}

/** Polls `probe` every 25 ms until it returns a value; throws after `attempts` tries. */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  attempts = 400,
): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
