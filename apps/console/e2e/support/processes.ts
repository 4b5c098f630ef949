import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on the loopback interface (the OS picks it; the socket is closed before use). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(),
      );
    });
  });
}

export interface Started {
  name: string;
  child: ChildProcess;
  output: () => string;
}

/** Starts a command in its own process group (so the whole tree can be stopped), keeping its output. */
export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Started {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: 'pipe' });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, child, output: () => output };
}

/** Stops a started process group (`next start` leaves a `next-server` child behind otherwise). */
export function stopProcess(started: Started): void {
  if (started.child.pid === undefined || started.child.exitCode !== null) return;
  try {
    process.kill(-started.child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** Polls a URL until it answers 2xx; fails with the process's output if it exits or takes too long. */
export async function waitForHttp(url: string, started: Started, attempts = 600): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (started.child.exitCode !== null)
      throw new Error(
        `${started.name} exited (${started.child.exitCode}) before answering:\n${started.output()}`,
      );
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${started.name} did not answer ${url} in time:\n${started.output()}`);
}

/** Resolves when a started process has exited (at once if it already has); gives up after `timeoutMs`. */
export function waitForExit(started: Started, timeoutMs = 25_000): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    started.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
