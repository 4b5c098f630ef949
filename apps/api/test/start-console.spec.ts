import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from './support/wait-for';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const npmStart = join(workspace, 'scripts/start.ts');
// A start may first build the console (`next build`: 30–60 s, more on a busy machine).
const startWithBuildTimeoutMs = 300_000;
// Probes (25 ms apart) for the console URL: about 270 s on a quiet machine, within the test's timeout.
const startedProbes = 10_800;
// Probes for a stopped start's console to go away (liveness bound, not a speed target: 15 s quiet).
const goneProbes = 600;

/** A started `npm start` (scripts/start.ts run with tsx, as `npm start` runs it), its output so far. */
interface Start {
  readonly child: ChildProcess;
  readonly output: { stdout: string; stderr: string };
  readonly exited: Promise<number | null>;
}

function spawnStart(environment: Record<string, string>): Start {
  const child = spawn(process.execPath, ['--import', 'tsx', npmStart], {
    cwd: workspace,
    env: {
      PATH: process.env['PATH'] ?? '',
      ...(process.env['HOME'] === undefined ? {} : { HOME: process.env['HOME'] }),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      AGENTDESK_SANDBOX_ENABLED: 'false',
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** The end of what a start printed, for a wait that failed. */
function outputTail(start: Start): { stdout: string; stderr: string } {
  return { stdout: start.output.stdout.slice(-2000), stderr: start.output.stderr.slice(-2000) };
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** A port free right now (the kernel's choice). */
async function freePort(): Promise<number> {
  const server = await listen(0);
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => resolve(server));
  });
}

interface ProcessInfo {
  readonly pid: number;
  readonly args: string;
}

/** Every process below `root` (children, grandchildren…), read from `ps`. */
async function descendants(root: number): Promise<ProcessInfo[]> {
  const { stdout } = await promisify(execFile)('ps', ['-A', '-o', 'pid=,ppid=,args=']);
  const rows = stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]!.trim() }));
  const found: ProcessInfo[] = [];
  const parents = [root];
  while (parents.length > 0) {
    const parent = parents.pop()!;
    for (const row of rows.filter((candidate) => candidate.ppid === parent)) {
      found.push({ pid: row.pid, args: row.args });
      parents.push(row.pid);
    }
  }
  return found;
}

/** Whether `pid` is a running process (a zombie waiting to be reaped counts as gone). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('npm start: the console it starts', () => {
  let folder: string;
  let leftovers: number[] = [];
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentdesk-start-console-'));
    leftovers = [];
  });
  afterEach(async () => {
    // A failed test must not leave a console holding a port: stop what this test started.
    for (const pid of leftovers.filter(running)) process.kill(pid, 'SIGKILL');
    await rm(folder, { recursive: true, force: true });
  });

  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'stops with the start that started it (%s of the start process): port free, no process left',
    async (signal) => {
      const consolePort = await freePort();
      const start = spawnStart({
        CONSOLE_PORT: String(consolePort),
        DATABASE_URL: `sqlite:${join(folder, 'agentdesk.db')}`,
      });
      leftovers.push(start.child.pid!);
      let exitCode: number | null | undefined;
      void start.exited.then((code) => (exitCode = code));
      const consoleUrl = `http://127.0.0.1:${consolePort}`;
      await waitFor(
        () => {
          if (exitCode !== undefined)
            throw new Error(
              `the start exited (${exitCode}):\n${start.output.stdout}\n${start.output.stderr}`,
            );
          return start.output.stdout.includes(`AgentDesk console: ${consoleUrl}`) ? true : undefined;
        },
        'the start to print the console URL',
        { attempts: startedProbes, state: () => outputTail(start) },
      );
      expect(await answers(`${consoleUrl}/sign-in`)).toBe(true);

      const below = await descendants(start.child.pid!);
      leftovers.push(...below.map((entry) => entry.pid));
      // The watchdog and `next start` under it (which runs the server itself or forks `next-server`).
      expect(below.map((entry) => entry.args).join('\n')).toMatch(/console-watchdog\.mjs .*next start/);
      expect(below.some((entry) => /next/.test(entry.args) && !/console-watchdog/.test(entry.args))).toBe(
        true,
      );

      // SIGKILL: what the OOM killer sends; no exit handler of the start runs.
      start.child.kill(signal);
      await start.exited;
      await waitFor(
        async () => ((await answers(`${consoleUrl}/sign-in`)) ? undefined : true),
        `the console at ${consoleUrl} to stop answering`,
        { attempts: goneProbes, state: () => outputTail(start) },
      );
      await waitFor(
        () => (below.every((process) => !running(process.pid)) ? true : undefined),
        'every process the start started to be gone',
        {
          attempts: goneProbes,
          state: () => ({ left: below.filter((process) => running(process.pid)) }),
        },
      );
      // The next start can have the port.
      const server = await listen(consolePort);
      await new Promise((resolve) => server.close(resolve));
    },
    startWithBuildTimeoutMs,
  );

  it('with the console port taken: one line naming the port and CONSOLE_PORT=, exit 1, before the API starts', async () => {
    const taken = await listen(0);
    const port = (taken.address() as { port: number }).port;
    try {
      const sqliteFile = join(folder, 'agentdesk.db');
      const start = spawnStart({ CONSOLE_PORT: String(port), DATABASE_URL: `sqlite:${sqliteFile}` });
      leftovers.push(start.child.pid!);
      const code = await start.exited;
      const { stdout, stderr } = start.output;
      expect(code, stderr).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^Port ${port} on 127\\.0\\.0\\.1 is already in use .* CONSOLE_PORT=${port + 1} npm start$`,
        ),
      );
      // Nothing was started or announced: no API, no admin key, no console URL.
      expect(stdout).not.toContain('listening on');
      expect(stdout).not.toContain('AgentDesk console:');
      expect(existsSync(sqliteFile)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
