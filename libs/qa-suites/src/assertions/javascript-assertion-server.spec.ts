import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ASSERTION_PROGRAM_PATH,
  NO_SERVER_EXIT_CODE,
  NOT_ANSWERED_EXIT_CODE,
  oomKillsIn,
  requestCommand,
  RUNNER_DIED_EXIT_CODE,
  startServerCommand,
} from './assertion-server-commands';
import { JAVASCRIPT_ASSERTION_PROGRAM } from './javascript-assertion-program';

const run = promisify(execFile);

/** A workspace as the sandbox's /workspace is one: the program in it, commands run with it as cwd. */
let workspace: string;
/** The runner's directory, as the start command printed it. */
let directory: string;

function serverPid(): number {
  return Number(readFileSync(join(workspace, directory, 'pid'), 'utf8'));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** What a failed wait reports: the runner's process and the end of its log. */
function runnerState(pid: number): { pid: number; alive: boolean; log: string } {
  let log: string;
  try {
    log = readFileSync(join(workspace, directory, 'log'), 'utf8').slice(-2000);
  } catch (error) {
    log = `(unreadable: ${String(error)})`;
  }
  return { pid, alive: alive(pid), log };
}

/** Waits until the runner `pid` has exited: 500 probes 10 ms apart, then an error saying what it saw. */
async function untilExited(pid: number): Promise<void> {
  const attempts = 500;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (!alive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(
    `timed out waiting for the runner (pid ${pid}) to exit (${attempts} probes); state seen: ${JSON.stringify(runnerState(pid), null, 2)}`,
  );
}

/** Runs a command as the sandbox does: `sh -c` in the workspace. */
async function shell(command: string): Promise<{ stdout: string; code: number }> {
  return run('sh', ['-c', command], { cwd: workspace }).then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }),
  );
}

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'qa-assertion-server-'));
  await mkdir(join(workspace, dirname(ASSERTION_PROGRAM_PATH)), { recursive: true });
  await writeFile(join(workspace, ASSERTION_PROGRAM_PATH), JAVASCRIPT_ASSERTION_PROGRAM);
  const started = await shell(startServerCommand());
  expect(started.code).toBe(0);
  directory = started.stdout.trim().split('\n')[0]!;
  expect(directory).toBe(`.qa/s-${readFileSync('/etc/hostname', 'utf8').trim()}`);
});

afterEach(async () => {
  try {
    process.kill(serverPid(), 'SIGKILL');
  } catch {
    // already gone (the test killed it)
  }
  await rm(workspace, { recursive: true, force: true });
});

/** One request, exactly as the API sends it (the request in the command). */
async function ask(id: string, request: string): Promise<string> {
  const { stdout, code } = await shell(requestCommand(directory, id, request));
  expect(code).toBe(0);
  return stdout;
}

function requestOf(output: unknown, codes: string[], timeoutMs = 300): string {
  return JSON.stringify({ output, checks: codes.map((code) => ({ code })), timeoutMs });
}

describe('JAVASCRIPT_ASSERTION_PROGRAM --serve', () => {
  it('answers each request on its own reply pipe and leaves no files behind', async () => {
    const answer = JSON.parse(
      await ask('one', requestOf({ total: 3 }, ['return output.total === 3', 'return false'])),
    );
    expect(answer.results.map((result: { passed: boolean }) => result.passed)).toEqual([true, false]);
    expect((await readdir(join(workspace, directory))).sort()).toEqual(['in', 'log', 'pid']);
  });

  it('answers requests sent at once each with its own verdicts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 12 }),
        async (values) => {
          const answers = await Promise.all(
            values.map((value, index) =>
              ask(`r${index}-${Math.abs(value)}`, requestOf({ value }, [`return output.value === ${value}`])),
            ),
          );
          for (const answer of answers) expect(JSON.parse(answer).results[0].passed).toBe(true);
        },
      ),
      { numRuns: 10 },
    );
  });

  it('keeps serving after a check that loops or throws', async () => {
    const looped = JSON.parse(await ask('loop', requestOf({}, ['while (true) {}'])));
    expect(looped.results[0]).toMatchObject({ passed: false, message: 'timed out after 300 ms' });
    const thrown = JSON.parse(await ask('throw', requestOf({}, ["throw new TypeError('no')"])));
    expect(thrown.results[0]).toMatchObject({ passed: false, message: 'TypeError: no' });
    const fine = JSON.parse(await ask('fine', requestOf({ a: 1 }, ['return output.a === 1'])));
    expect(fine.results[0].passed).toBe(true);
  });

  it('says what is wrong with a request it cannot read, and keeps serving', async () => {
    expect(JSON.parse(await ask('bad', '{"checks": "nope"}'))).toEqual({
      error: expect.stringContaining('the request needs "checks"'),
    });
    expect(JSON.parse(await ask('after', requestOf({}, ['return true']))).results[0].passed).toBe(true);
  });

  it('ignores a line that is not a request id', async () => {
    await shell(`echo "../../etc/passwd" > ${directory}/in`);
    expect(JSON.parse(await ask('next', requestOf({}, ['return true']))).results[0].passed).toBe(true);
  });

  it("ends the client's read at once when a check kills the process (out of heap), and says so in its log", async () => {
    const pid = serverPid();
    const hog = await shell(
      requestCommand(
        directory,
        'hog',
        requestOf({}, ['const kept = []; for (;;) kept.push(new Array(1e6).fill(1))'], 60_000),
      ),
    );
    expect(hog).toEqual({ code: RUNNER_DIED_EXIT_CODE, stdout: '' });
    await untilExited(pid);
    expect(readFileSync(join(workspace, directory, 'log'), 'utf8')).toMatch(/heap out of memory/i);
  });

  it('tells a client there is no runner once it is gone, and a new start replaces it', async () => {
    const pid = serverPid();
    process.kill(pid, 'SIGKILL');
    await untilExited(pid);
    const refused = await shell(requestCommand(directory, 'gone', requestOf({}, ['return true'])));
    expect(refused.code).toBe(NO_SERVER_EXIT_CODE);
    const restarted = await shell(startServerCommand());
    expect(restarted.stdout.split('\n')[0]).toBe(directory);
    expect(serverPid()).not.toBe(pid);
    expect(JSON.parse(await ask('back', requestOf({}, ['return true']))).results[0].passed).toBe(true);
  });

  it('counts a runner killed but not yet reaped (a zombie) as gone, instead of writing to its pipe', async () => {
    process.kill(serverPid(), 'SIGKILL');
    // A child that exits under a parent that never waits for it stays a zombie.
    const zombieParent = await shell(
      `sh -c 'sleep 0 & echo $! > ${directory}/pid; exec sleep 3' > /dev/null 2>&1 & sleep 0.3; cat ${directory}/pid`,
    );
    const zombie = Number(zombieParent.stdout.trim());
    expect(readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /);
    const refused = await shell(requestCommand(directory, 'zombie', requestOf({}, ['return true'])));
    expect(refused.code).toBe(NO_SERVER_EXIT_CODE);
  });

  it('tells a runner that gave up on a client apart from a runner that died', async () => {
    process.kill(serverPid(), 'SIGKILL');
    // A stand-in runner that opens the client's reply pipe and closes it unanswered, and lives on.
    await shell(
      `cd ${directory} && rm -f in && mkfifo in && ` +
        `(sh -c 'echo $$ > pid; read id < in; exec 3> r-$id; exec 3>&-; sleep 5' > /dev/null 2>&1 &) && ` +
        'until [ -s pid ]; do sleep 0.01; done',
    );
    const unanswered = await shell(requestCommand(directory, 'late', requestOf({}, ['return true'])));
    expect(unanswered.code).toBe(NOT_ANSWERED_EXIT_CODE);
    process.kill(serverPid(), 'SIGKILL');
  });

  it('restarting kills the runner that was there', async () => {
    const pid = serverPid();
    await shell(startServerCommand());
    await untilExited(pid);
    expect(alive(serverPid())).toBe(true);
  });

  it('refuses a directory of another container (a workspace carried over keeps the old one)', async () => {
    const elsewhere = directory.replace(/s-.*$/, 's-another-host');
    const refused = await shell(requestCommand(elsewhere, 'moved', requestOf({}, ['return true'])));
    expect(refused.code).toBe(NO_SERVER_EXIT_CODE);
  });

  it('prints the OOM kill count after the directory where the cgroup says it', async () => {
    const started = await shell(startServerCommand());
    const [, ...rest] = started.stdout.trim().split('\n');
    // The host's cgroup may not say (no memory controller here): then nothing, never a wrong number.
    if (rest.length > 0) expect(oomKillsIn(rest.join('\n'))).toEqual(expect.any(Number));
    else expect(oomKillsIn('')).toBeUndefined();
  });
});
