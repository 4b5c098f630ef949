import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '@agentdesk/storage';
import { testPostgresUrl } from '@agentdesk/storage/testing';
import { testDatabaseOver, type TestDatabaseFactory } from '@agentdesk/storage/testing';

/**
 * A migrated PostgreSQL database of its own per call, dropped on cleanup.
 *
 * Why not the storage suite's schema-per-test factory: Kysely's migrator looks for its
 * bookkeeping tables in *every* schema of the database, so while another test's schema exists
 * (parallel test files, or two apps in one test) a fresh schema is never given its own
 * `kysely_migration_lock` table and migrating it fails. A database per test has no such neighbours.
 */
export const postgresDatabasePerTest: TestDatabaseFactory = async () => {
  const name = `agentdesk_api_test_${process.pid}_${randomBytes(5).toString('hex')}`;
  await runAdminStatement(`create database ${name}`);
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ url: url.toString(), poolSize: 8 });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.destroy();
    await runAdminStatement(`drop database if exists ${name} with (force)`);
    throw error;
  }
  return testDatabaseOver(database, () => runAdminStatement(`drop database if exists ${name} with (force)`));
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
