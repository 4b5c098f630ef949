import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openDatabase, type AppDatabase } from '@agentdesk/storage';
import { testPostgresUrl } from '@agentdesk/storage/testing';
import { testDatabaseOver, type TestDatabaseFactory } from '@agentdesk/storage/testing';

/** A migrated PostgreSQL database of its own, with its URL (for API processes started on it). */
export interface OwnPostgresDatabase {
  readonly url: string;
  readonly database: AppDatabase;
  /** Closes the connection pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates and migrates a PostgreSQL database of its own.
 *
 * Why not the storage suite's schema-per-test factory: Kysely's migrator looks for its
 * bookkeeping tables in *every* schema of the database, so while another test's schema exists
 * (parallel test files, or two apps in one test) a fresh schema is never given its own
 * `kysely_migration_lock` table and migrating it fails. A database per test has no such neighbours.
 */
export async function createOwnPostgresDatabase(): Promise<OwnPostgresDatabase> {
  const name = `agentdesk_api_test_${process.pid}_${randomBytes(5).toString('hex')}`;
  await runAdminStatement(`create database ${name}`);
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ url: url.toString(), poolSize: 8 });
  const dropDatabase = () => runAdminStatement(`drop database if exists ${name} with (force)`);
  try {
    await migrateToLatest(database);
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
export const postgresDatabasePerTest: TestDatabaseFactory = async () => {
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
