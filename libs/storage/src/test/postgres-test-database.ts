import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { migrateToLatest } from '../migrate';
import { openDatabase, type AppDatabase } from '../open-database';
import { testDatabaseOver, type TestDatabaseFactory } from './test-database';

/** The PostgreSQL the tests use (CI: 127.0.0.1:5432, database `test`). */
export const testPostgresUrl =
  process.env['AGENTDESK_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A migrated PostgreSQL database of its own, with its URL (for API processes started on it). */
export interface OwnPostgresDatabase {
  readonly url: string;
  readonly database: AppDatabase;
  /** Closes the connection pool and drops the database. */
  drop(): Promise<void>;
}

/** Options of {@link createOwnPostgresDatabase}. */
export interface OwnPostgresDatabaseOptions {
  /** False: leave it empty, as a new deployment's database is (tests of concurrent first starts). */
  readonly migrated?: boolean;
}

/**
 * Creates a PostgreSQL database of its own (on the server of `testPostgresUrl`), migrated unless
 * asked otherwise.
 *
 * Why not a schema per test in one database: Kysely's migrator introspects the tables of *every*
 * schema of the database, so another test's schema being created or dropped at that moment
 * (parallel test files or projects) fails the migration — seen in CI as "schema … does not exist".
 * A database per test has no such neighbours.
 *
 * Why a copy of a template instead of migrating each one: ~300 tests a run each migrated a new
 * database (0.3–0.6 s of 19 migrations); `CREATE DATABASE … TEMPLATE` copies a migrated one in a
 * fraction of that. The template is migrated once by the real migrator (see `migratedTemplate`).
 */
export async function createOwnPostgresDatabase(
  options: OwnPostgresDatabaseOptions = {},
): Promise<OwnPostgresDatabase> {
  const name = `agentdesk_test_${process.pid}_${randomBytes(5).toString('hex')}`;
  const migrated = options.migrated !== false;
  await runAdminStatement(
    migrated ? `create database ${name} template ${await migratedTemplate()}` : `create database ${name}`,
  );
  const url = databaseUrl(name);
  const database = openDatabase({ url, poolSize: 8 });
  return {
    url,
    database,
    async drop() {
      await database.destroy();
      await runAdminStatement(`drop database if exists ${name} with (force)`);
    },
  };
}

/** A migrated PostgreSQL database of its own per call, dropped on cleanup. */
export const postgresTestDatabase: TestDatabaseFactory = async () => {
  const own = await createOwnPostgresDatabase();
  const name = new URL(own.url).pathname.slice(1);
  return testDatabaseOver(own.database, () =>
    runAdminStatement(`drop database if exists ${name} with (force)`),
  );
};

function databaseUrl(name: string): string {
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/**
 * The name of a database migrated to the latest schema, to copy. Named by a hash of the migration
 * sources, so an edited or added migration gets a new template, and kept on the server between
 * runs: one process builds it (under an advisory lock, under a temporary name renamed when done, so
 * no one copies a half-migrated one) and every test process after it only copies. It refuses
 * connections once built: `CREATE DATABASE … TEMPLATE` fails while anyone is connected to it.
 */
function migratedTemplate(): Promise<string> {
  template ??= buildTemplateOnce().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

async function buildTemplateOnce(): Promise<string> {
  const name = `agentdesk_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: testPostgresUrl });
  await admin.connect();
  try {
    await admin.query(`select pg_advisory_lock(hashtext('agentdesk test template'))`);
    const existing = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const database = openDatabase({ url: databaseUrl(building), poolSize: 2 });
      try {
        await migrateToLatest(database);
      } finally {
        await database.destroy();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
      await admin.query(`alter database ${name} with allow_connections false`);
    }
    return name;
  } finally {
    await admin.end();
  }
}

/** A short hash of every migration source (the schema a migrated database has). */
function migrationsHash(): string {
  const folder = new URL('../migrations/', import.meta.url);
  const hash = createHash('sha256');
  for (const file of readdirSync(folder).sort()) {
    hash.update(file);
    hash.update(readFileSync(new URL(file, folder)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function runAdminStatement(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
