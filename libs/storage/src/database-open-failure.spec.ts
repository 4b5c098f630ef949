import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainDatabaseOpenFailure } from './database-open-failure';
import { migrateToLatest } from './migrate';
import { openDatabase } from './open-database';
import { testPostgresUrl } from './test/postgres-test-database';

/** Opens and migrates like the API's start does; returns what it threw (the real driver error). */
async function failureOfOpening(url: string): Promise<unknown> {
  let database;
  try {
    database = openDatabase({ url, poolSize: 1 });
    await migrateToLatest(database);
  } catch (error) {
    return error;
  } finally {
    await database?.destroy().catch(() => undefined);
  }
  throw new Error(`${url} opened, but the test expected a failure`);
}

async function explain(url: string): Promise<string | undefined> {
  return explainDatabaseOpenFailure(await failureOfOpening(url), url);
}

const server = new URL(testPostgresUrl);
const user = decodeURIComponent(server.username);

function postgresUrl(changes: {
  host?: string;
  port?: string;
  database?: string;
  credentials?: string;
}): string {
  const credentials = changes.credentials ?? user;
  return `postgres://${credentials}@${changes.host ?? server.hostname}:${changes.port ?? server.port}/${changes.database ?? 'test'}`;
}

describe('explainDatabaseOpenFailure on PostgreSQL (a real server)', () => {
  it('names a missing database and the createdb command that makes it, in either URL scheme', async () => {
    const name = `agentdesk_missing_${randomBytes(4).toString('hex')}`;
    const expected = `PostgreSQL database "${name}" does not exist on ${server.hostname}:${server.port} — create it with: createdb -h ${server.hostname} -p ${server.port} -U ${user} ${name}`;
    expect(await explain(postgresUrl({ database: name }))).toBe(expected);
    expect(await explain(postgresUrl({ database: name }).replace('postgres:', 'postgresql:'))).toBe(expected);
  });

  it('says no server answers when the connection is refused (IPv4, IPv6, a name)', async () => {
    for (const host of ['127.0.0.1', '[::1]', 'localhost']) {
      const message = await explain(postgresUrl({ host, port: '1' }));
      expect(message, host).toMatch(
        /^No PostgreSQL server is accepting connections on .+:1 \(connection refused\)/,
      );
      expect(message, host).toContain('DATABASE_URL');
    }
  });

  it('says which host was not found', async () => {
    expect(await explain(postgresUrl({ host: 'no-such-host.invalid' }))).toMatch(
      /^The PostgreSQL host "no-such-host\.invalid" was not found/,
    );
  });

  it('reports a refused login with the server’s reason, never the password', async () => {
    const message = await explain(postgresUrl({ credentials: 'ghost_user:hunter2-secret' }));
    expect(message).toMatch(/refused the login of user "ghost_user": role "ghost_user" does not exist/);
    expect(message).not.toContain('hunter2');
  });

  it('never prints the password of the URL, whatever it is and however the start fails', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 8, maxLength: 24 }),
        fc.constantFrom('refused', 'missing-database'),
        async (password, failure) => {
          const credentials = `${user}:${encodeURIComponent(`pw-${password}`)}`;
          const url =
            failure === 'refused'
              ? postgresUrl({ credentials, port: '1' })
              : postgresUrl({ credentials, database: `agentdesk_missing_${randomBytes(4).toString('hex')}` });
          const message = (await explain(url)) ?? '';
          expect(message.length).toBeGreaterThan(0);
          expect(message).not.toContain(`pw-${password}`);
          expect(message).not.toContain(encodeURIComponent(`pw-${password}`));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('leaves other failures (a bug in a query) unexplained, so their stack trace is printed', async () => {
    const database = openDatabase({ url: testPostgresUrl, poolSize: 1 });
    try {
      const error = await sql`selec 1`.execute(database.db).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeDefined();
      expect(explainDatabaseOpenFailure(error, testPostgresUrl)).toBeUndefined();
    } finally {
      await database.destroy();
    }
    expect(explainDatabaseOpenFailure(new Error('boom'), testPostgresUrl)).toBeUndefined();
  });
});

describe('explainDatabaseOpenFailure on SQLite (the real file system)', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentdesk-open-failure-'));
    await writeFile(join(folder, 'a-file'), 'not a folder');
    await writeFile(
      join(folder, 'notes.txt'),
      'plain text, long enough to fill a SQLite header page. '.repeat(20),
    );
    await mkdir(join(folder, 'a-folder'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  // Each case fails for root too (the CI user): file-system shapes, not permissions.
  it.each([
    [
      'a file where a folder should be',
      () => `a-file/agentdesk.db`,
      /^Cannot create the folder .*a-file .*\(a file with that name is in the way\)/,
    ],
    [
      'a file deeper in the path',
      () => `a-file/nested/agentdesk.db`,
      /^Cannot create the folder .*a-file.* \(/,
    ],
    [
      'a folder where the file should be',
      () => `a-folder`,
      /^The SQLite database path .*a-folder is a folder, not a file/,
    ],
    ['a file that is not a database', () => `notes.txt`, /notes\.txt is not a SQLite database/],
  ])('%s', async (_name, relative, expected) => {
    for (const prefix of ['sqlite:', 'file:', '']) {
      const url = `${prefix}${join(folder, relative())}`;
      const message = await explain(url);
      expect(message, url).toMatch(expected);
    }
  });

  it('a folder that takes no files (/proc)', async () => {
    const message = await explain('sqlite:/proc/agentdesk-test.db');
    expect(message).toMatch(/^SQLite cannot create \/proc\/agentdesk-test\.db/);
    expect(message).toContain('DATABASE_URL=sqlite:');
  });

  it('shows the absolute path of a relative file name', async () => {
    const url = `sqlite:${relative(process.cwd(), join(folder, 'a-folder'))}`;
    expect(url).not.toMatch(/^sqlite:\//);
    expect(await explain(url)).toContain(join(folder, 'a-folder'));
  });

  it('leaves other failures unexplained', () => {
    expect(explainDatabaseOpenFailure(new Error('boom'), 'sqlite:data/agentdesk.db')).toBeUndefined();
    expect(explainDatabaseOpenFailure(new Error('boom'), 'mysql://x')).toBeUndefined();
  });
});
