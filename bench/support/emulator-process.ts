import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface EmulatorProcess {
  url: string;
  /** The requests the emulator recorded (only with `maxRecordedRequests`), oldest first. */
  recordedRequests(): Promise<Array<{ body: unknown }>>;
  /** Queues scripted replies through the emulator's control endpoint. */
  script(replies: unknown[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs the provider emulator in its own process, so a benchmark's CPU measurements contain only the
 * client side (the code under test), not the server answering it.
 */
export async function startEmulatorProcess(
  options: { maxRecordedRequests?: number } = {},
): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(workspaceRoot, 'libs/provider-emulator/src/cli.ts'),
      '--port',
      '0',
      '--max-recorded-requests',
      String(options.maxRecordedRequests ?? 0),
    ],
    { cwd: workspaceRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
  child.stdout?.resume();
  return {
    url,
    async recordedRequests() {
      const response = await fetch(`${url}/_emulator/requests`);
      return ((await response.json()) as { requests: Array<{ body: unknown }> }).requests;
    },
    async script(replies) {
      const response = await fetch(`${url}/_emulator/script`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(replies),
      });
      if (!response.ok) throw new Error(`scripting failed: ${response.status} ${await response.text()}`);
    },
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
