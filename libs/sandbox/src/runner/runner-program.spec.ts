import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/wait-for';
import { RunnerConnection } from './runner-connection';
import { type StartRequest } from './runner-frames';
import { RUNNER_PROGRAM } from './runner-program';

// The runner program itself, run by this machine's node and spoken to by the real client: the
// protocol, timeout, cap, cancel and exit reporting without a Docker engine (the engine suites run
// the same program inside containers).
const directory = mkdtempSync(join(tmpdir(), 'agentdesk-runner-'));
const programPath = join(directory, 'runner.cjs');
let runner: RunnerConnection;

beforeAll(async () => {
  writeFileSync(programPath, RUNNER_PROGRAM);
  const child = spawn(process.execPath, [programPath], { cwd: directory, stdio: ['pipe', 'pipe', 'pipe'] });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const connection = await RunnerConnection.attach(
    {
      execId: 'local',
      stdin: child.stdin,
      stdout: child.stdout,
      stderr: child.stderr,
      closed,
      destroy: () => child.kill('SIGKILL'),
    },
    'local',
  );
  if (!connection) throw new Error('the runner did not say it is ready');
  runner = connection;
});
afterAll(() => runner?.close());

function request(command: string, options: Partial<StartRequest> = {}): StartRequest {
  return {
    command,
    cwd: directory,
    timeoutMs: 10_000,
    maxOutputBytes: 1024 * 1024,
    marker: `m-${Math.random()}`,
    ...options,
  };
}

/** Alive and not a zombie waiting for its new parent to reap it. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

describe.concurrent('the in-container command runner', () => {
  it('runs a command in its working directory and reports output and exit code', async () => {
    const { report, stdout, stderr } = await runner.run(request('pwd; echo err >&2; exit 3')).outcome;
    expect(report).toMatchObject({ exitCode: 3, timedOut: false, cancelled: false, oomKilled: false });
    expect(stdout.text).toBe(`${directory}\n`);
    expect(stderr).toEqual({ text: 'err\n', totalBytes: 4, truncated: false });
  });

  it('keeps at most the cap of each stream and counts the rest', async () => {
    const { report, stdout } = await runner.run(
      request('head -c 100000 /dev/zero | tr "\\0" a', { maxOutputBytes: 1000 }),
    ).outcome;
    expect(report.exitCode).toBe(0);
    expect(stdout).toEqual({ text: 'a'.repeat(1000), totalBytes: 100_000, truncated: true });
  });

  it('passes bytes through unchanged (binary output)', async () => {
    const { stdout } = await runner.run(request("printf 'a\\0b\\377c'")).outcome;
    expect(Buffer.from(stdout.text, 'utf8').includes(0)).toBe(true);
    expect(stdout.totalBytes).toBe(5);
  });

  it('kills the whole tree at the timeout, background children included', async () => {
    // The timer runs from the start: room for the pid to be printed on a loaded machine.
    const { report, stdout } = await runner.run(
      request('sleep 300 & echo $!; sleep 300', { timeoutMs: 5000 }),
    ).outcome;
    expect(report.timedOut).toBe(true);
    expect(report.exitCode).toBe(137);
    const backgroundPid = Number(stdout.text.trim());
    expect(backgroundPid).toBeGreaterThan(1);
    expect(isRunning(backgroundPid)).toBe(false);
  });

  it('kills a cancelled command and a child that left the process group, by its marker', async () => {
    const run = runner.run(request('setsid sleep 301 & echo $!; touch started-301; sleep 301'));
    // Cancelled once the child exists, however long the start took.
    await waitFor(
      () => (existsSync(join(directory, 'started-301')) ? true : undefined),
      'the command to touch started-301 (its setsid child started)',
      { attempts: 3000, intervalMs: 20, state: () => readdirSync(directory) },
    );
    run.cancel();
    const { report, stdout } = await run.outcome;
    expect(report).toMatchObject({ cancelled: true, timedOut: false });
    expect(isRunning(Number(stdout.text.trim()))).toBe(false);
  });

  it('reports a shell killed by a signal with 128 + n, and not as out of memory', async () => {
    const { report } = await runner.run(request('kill -9 $$')).outcome;
    expect(report).toMatchObject({ exitCode: 137, oomKilled: false });
  });

  it('runs many commands at once over the one stream', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => runner.run(request(`echo ${index}`)).outcome),
    );
    expect(results.map((result) => result.stdout.text)).toEqual(
      Array.from({ length: 50 }, (_, index) => `${index}\n`),
    );
  });
});
