import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createRepositories, openDatabase } from '@agentdesk/storage';
import { testPostgresUrl } from '@agentdesk/storage/testing';
import { generateApiKey } from '../src/core/api-key-format';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * How a test starts a program: `node` with its arguments. The API's start-up paths run from the
 * bundle of this run (`node <bundle>`, what production runs: the same main.ts, compiled once);
 * the first test starts main.ts through tsx as a developer does, and the scripts run through tsx.
 */
type Entry = readonly string[];
const tsx = (script: string): Entry => ['--import', 'tsx', join(workspace, script)];
const main: Entry = ['--enable-source-maps', inject('apiBundle')];
const mainWithTsx = tsx('apps/api/src/main.ts');
const npmStart = tsx('scripts/start.ts');
const adminKeyScript = tsx('scripts/admin-key.ts');
// A test that spawns processes several times (a tsx start compiles the app again each time).
const severalStartsTimeoutMs = 300_000;
const keyPattern = /adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}/g;

/** Children a test started that have not exited yet. */
const running = new Set<ChildProcess>();

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program from the workspace root until it exits. */
function runScript(script: Entry, environment: Record<string, string>, args: string[] = []): Promise<Run> {
  return runUntil(script, environment, args, () => false);
}

/** Runs the API from the workspace root until it prints its URL (then stops it) or exits. */
function runMain(environment: Record<string, string>, script: Entry = main): Promise<Run> {
  return runUntil(
    script,
    environment,
    [],
    (stdout) =>
      stdout.includes('listening on') &&
      (stdout.includes('Keep it secret') || !stdout.includes('First start')),
  );
}

function runUntil(
  script: Entry,
  environment: Record<string, string>,
  args: string[],
  done: (stdout: string) => boolean,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...script, ...args], {
      cwd: workspace,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // No kill timer: on a loaded machine a start takes as long as it takes, and the test's
    // timeout bounds a hang; a child still running when its test ends is killed in afterEach.
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (done(stdout)) setTimeout(() => child.kill('SIGTERM'), 200);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A running API to send requests to. */
interface RunningMain {
  readonly url: string;
  stop(): Promise<void>;
}

function startMain(environment: Record<string, string>): Promise<RunningMain> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...main], {
      cwd: workspace,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url !== undefined)
        resolve({
          url,
          async stop() {
            child.kill('SIGTERM');
            await exited;
          },
        });
    });
    child.once('exit', (code) => reject(new Error(`main.ts exited (${code}) before listening: ${stderr}`)));
  });
}

/** Every key of a SQLite database, read with the storage library. */
async function storedKeys(sqliteFile: string): Promise<Array<{ role: string; revoked: boolean }>> {
  const database = openDatabase({ url: `sqlite:${sqliteFile}` });
  try {
    const page = await createRepositories(database).apiKeys.list({ includeRevoked: true }, { limit: 100 });
    return page.items.map((key) => ({ role: key.role, revoked: key.revokedAt !== null }));
  } finally {
    await database.destroy();
  }
}

async function whoIs(url: string, key: string): Promise<{ status: number; role?: string }> {
  const response = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { role?: string };
  return { status: response.status, ...(body.role === undefined ? {} : { role: body.role }) };
}

/** A port some other program holds for the duration of a test. */
async function occupyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return { port: address.port, server };
}

/** A start-up failure an operator fixes: one line on stderr, no stack trace. */
function expectOneLineFailure(run: Run, expected: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(expected);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stdout).not.toContain('listening on');
}

describe('main.ts: the API’s start-up', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentdesk-main-'));
  });
  afterEach(async () => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
    await rm(folder, { recursive: true, force: true });
  });

  it('prints its URL and, on the first start only, the admin key (never into a log line)', async () => {
    const environment = { DATABASE_URL: `sqlite:${join(folder, 'data', 'agentdesk.db')}` };
    // A developer's start (npx tsx apps/api/src/main.ts), then the bundle on the same database.
    const first = await runMain(environment, mainWithTsx);
    expect(first.stdout).toMatch(/AgentDesk API listening on http:\/\/127\.0\.0\.1:\d+/);
    const printed = first.stdout.match(keyPattern) ?? [];
    expect(new Set(printed).size).toBe(1);
    const key = printed[0] ?? '';
    const logLines = first.stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(key);
    expect(logLines.join('\n')).not.toContain(key.slice(-43));

    const second = await runMain(environment);
    expect(second.stdout).toContain('listening on');
    expect(second.stdout.match(keyPattern)).toBeNull();
  });

  it('fails fast on invalid configuration, naming the variables and never their secret values', async () => {
    const secret = `${generateApiKey().key}-tampered`;
    const run = await runMain({
      DATABASE_URL: `sqlite:${join(folder, 'x.db')}`,
      PORT: 'http',
      AGENTDESK_ADMIN_KEY: secret,
      AGENTDESK_DEV_MODE: 'true',
      HOST: '0.0.0.0',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('PORT');
    expect(run.stderr).toContain('AGENTDESK_ADMIN_KEY');
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret.slice(4, 36));
    expect(run.stdout).not.toContain('listening on');
  });

  it('refuses dev mode on a non-loopback address, and warns loudly when it is on', async () => {
    const exposed = await runMain({
      DATABASE_URL: `sqlite:${join(folder, 'x.db')}`,
      AGENTDESK_DEV_MODE: 'true',
      HOST: '0.0.0.0',
    });
    expect(exposed.code).toBe(2);
    expect(exposed.stderr).toContain('must be a loopback address');

    const local = await runMain({
      DATABASE_URL: `sqlite:${join(folder, 'y.db')}`,
      AGENTDESK_DEV_MODE: 'true',
    });
    expect(local.stdout).toContain('listening on http://127.0.0.1:');
    expect(local.stderr).toContain('DEV MODE: requests WITHOUT an API key act as the anonymous local user');
  });
  it(
    'with its port taken: one line naming the port and PORT=, exit 1, and no admin key left behind unseen',
    async () => {
      const sqliteFile = join(folder, 'data', 'agentdesk.db');
      const taken = await occupyPort();
      try {
        for (const script of [main, npmStart]) {
          const run = await runMain(
            { DATABASE_URL: `sqlite:${sqliteFile}`, PORT: String(taken.port) },
            script,
          );
          expectOneLineFailure(
            run,
            new RegExp(
              `^Port ${taken.port} on 127\\.0\\.0\\.1 is already in use .* PORT=${taken.port + 1} npm start$`,
            ),
          );
          expect(run.stdout.match(keyPattern)).toBeNull();
          expect(await storedKeys(sqliteFile)).toEqual([]);
        }
      } finally {
        await new Promise((resolve) => taken.server.close(resolve));
      }
      // Once the port is free, the first successful start creates and prints the key.
      const started = await runMain({ DATABASE_URL: `sqlite:${sqliteFile}` });
      expect(new Set(started.stdout.match(keyPattern) ?? []).size).toBe(1);
      expect(await storedKeys(sqliteFile)).toEqual([{ role: 'admin', revoked: false }]);
    },
    severalStartsTimeoutMs,
  );

  it(
    'npm run admin-key issues a working admin key from the host; --revoke-others retires the others',
    async () => {
      const sqliteFile = join(folder, 'agentdesk.db');
      const environment = { DATABASE_URL: `sqlite:${sqliteFile}` };
      const firstStart = await runMain(environment);
      const firstKey = firstStart.stdout.match(keyPattern)?.[0] ?? '';
      expect(firstKey).not.toBe('');

      // The key alone on stdout (KEY=$(npm run --silent admin-key)); notes on stderr.
      const issued = await runScript(adminKeyScript, environment);
      expect(issued.code, issued.stderr).toBe(0);
      expect(issued.stdout).toMatch(/^adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}\n$/);
      const issuedKey = issued.stdout.trim();
      expect(issued.stderr).toContain('shown this once');
      expect(issued.stderr).not.toContain(issuedKey);

      const server = await startMain(environment);
      try {
        // Issued while the server runs: usable at once, and the first key still works.
        const rotated = await runScript(adminKeyScript, environment, ['--revoke-others']);
        expect(rotated.code, rotated.stderr).toBe(0);
        expect(rotated.stderr).toMatch(/Revoked 2 other admin key\(s\)/);
        const rotatedKey = rotated.stdout.trim();
        expect(await whoIs(server.url, rotatedKey)).toEqual({ status: 200, role: 'admin' });
        expect((await whoIs(server.url, issuedKey)).status).toBe(401);
        expect((await whoIs(server.url, firstKey)).status).toBe(401);
        const created = await fetch(`${server.url}/v1/admin/api-keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${rotatedKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ role: 'user', label: 'made with the rotated key', externalId: 'alice' }),
        });
        expect(created.status).toBe(201);
      } finally {
        await server.stop();
      }

      const unknown = await runScript(adminKeyScript, environment, ['--revoke-all']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('Unknown argument "--revoke-all"');
      expect(unknown.stdout).toBe('');
    },
    severalStartsTimeoutMs,
  );

  it('npm run admin-key on a database that cannot be opened: one line, exit 1, no key', async () => {
    const run = await runScript(adminKeyScript, {
      DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/agentdesk',
    });
    expectOneLineFailure(run, /^No PostgreSQL server is accepting connections on 127\.0\.0\.1:1/);
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stdout).toBe('');
  });

  const postgresServer = new URL(testPostgresUrl);
  const postgresUrl = (database: string, changes: { port?: string; user?: string } = {}): string =>
    `postgres://${changes.user ?? postgresServer.username}:hunter2-secret@${postgresServer.hostname}:${changes.port ?? postgresServer.port}/${database}`;
  const missingDatabase = `agentdesk_missing_${randomBytes(4).toString('hex')}`;
  it.each<[string, () => string, RegExp]>([
    [
      'a missing PostgreSQL database',
      () => postgresUrl(missingDatabase),
      new RegExp(
        `^PostgreSQL database "${missingDatabase}" does not exist on ${postgresServer.hostname}:${postgresServer.port} — create it with: createdb -h ${postgresServer.hostname} -p ${postgresServer.port} -U ${postgresServer.username} ${missingDatabase}$`,
      ),
    ],
    [
      'no PostgreSQL server (connection refused)',
      () => postgresUrl('test', { port: '1' }),
      /^No PostgreSQL server is accepting connections on .*:1 \(connection refused\)/,
    ],
    [
      'a PostgreSQL login refused',
      () => postgresUrl('test', { user: 'ghost_user' }),
      /refused the login of user "ghost_user": role "ghost_user" does not exist — check the user and password in DATABASE_URL$/,
    ],
    [
      'an unwritable SQLite path',
      () => `sqlite:${join(folder, 'a-file', 'agentdesk.db')}`,
      /^Cannot create the folder .*a-file for the SQLite database .* — set DATABASE_URL=sqlite:/,
    ],
  ])(
    '%s: one line saying what and how to fix it, exit 1, never the password',
    async (_name, url, expected) => {
      await writeFile(join(folder, 'a-file'), 'a file where the folder should be');
      const run = await runMain({ DATABASE_URL: url() });
      expectOneLineFailure(run, expected);
      expect(`${run.stdout}${run.stderr}`).not.toContain('hunter2');
    },
  );
});
