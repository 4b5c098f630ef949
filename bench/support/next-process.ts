import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort, type ServerProcess } from './server-process';

/**
 * `next start <appDirectory>` (the production build) in its own process group: `next start` may leave
 * a `next-server` child behind when only its parent is signalled, so `stop()` signals the group.
 */
export async function startNextProcess(options: {
  workspaceRoot: string;
  appDirectory: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(options.workspaceRoot, 'node_modules/next/dist/bin/next'),
      'start',
      options.appDirectory,
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    { cwd: options.workspaceRoot, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await exited;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      // The sign-in page answers without a cookie: the server is up once it renders.
      if ((await fetch(`${url}/sign-in`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { name: 'console (next start)', url, pid: child.pid!, output: () => output, stop };
}
