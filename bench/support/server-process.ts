import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A server started as its own process, so its CPU never pollutes the client's measurements. */
export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Everything the process printed (stdout and stderr). */
  output(): string;
  /** SIGTERM, then wait for the exit (a `--cpu-prof` profile is written on a clean exit). */
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  readonly name: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Returns the base URL once the output says the server is ready. */
  readonly ready: (output: string) => string | undefined;
  readonly timeoutMs?: number;
}

/** Spawns `node <args>` and waits until `ready` finds the URL in its output. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${options.name} did not start in time:\n${output}`)),
      options.timeoutMs ?? 60_000,
    );
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited with ${code} before it was ready:\n${output}`));
    };
    child.once('exit', onExit);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = options.ready(output);
      if (found !== undefined) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(found);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  return {
    name: options.name,
    url,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A TCP port that was free a moment ago (for servers that cannot listen on port 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** CPU time (user + system) a process has used so far, in microseconds; NaN where /proc is missing. */
export function processCpuMicroseconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    return (ticks * 1_000_000) / clockTicksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** `getconf CLK_TCK`: 100 on every Linux kernel Node supports. */
const clockTicksPerSecond = 100;
