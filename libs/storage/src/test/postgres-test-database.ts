import { randomBytes } from 'node:crypto';
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
 * Creates and migrates a PostgreSQL database of its own (on the server of `testPostgresUrl`).
 *
 * Why not a schema per test in one database: Kysely's migrator introspects the tables of *every*
 * schema of the database, so another test's schema being created or dropped at that moment
 * (parallel test files or projects) fails the migration — seen in CI as "schema … does not exist".
 * A database per test has no such neighbours.
 */
export async function createOwnPostgresDatabase(
  options: OwnPostgresDatabaseOptions = {},
): Promise<OwnPostgresDatabase> {
  const name = `agentdesk_test_${process.pid}_${randomBytes(5).toString('hex')}`;
  await runAdminStatement(`create database ${name}`);
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ url: url.toString(), poolSize: 8 });
  const dropDatabase = () => runAdminStatement(`drop database if exists ${name} with (force)`);
  try {
    if (options.migrated !== false) await migrateToLatest(database);
  } catch (error) {
    await database.destroy();
    await dropDatabase();
    throw error;
  }
  return {
    url: url.toString(),
    database,
    async drop() {
      await database.destroy();
      await dropDatabase();
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

async function runAdminStatement(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
