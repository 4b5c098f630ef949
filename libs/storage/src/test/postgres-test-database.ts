import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from '../migrate';
import { openDatabase } from '../open-database';
import { testDatabaseOver, type TestDatabaseFactory } from './test-database';

/** The PostgreSQL the tests use (CI: 127.0.0.1:5432, database `test`). */
export const testPostgresUrl =
  process.env['AGENTDESK_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A migrated PostgreSQL database isolated in a schema of its own (unique per process and call),
 * dropped on cleanup — parallel test files and reruns never see each other's rows.
 */
export const postgresTestDatabase: TestDatabaseFactory = async () => {
  const schema = `agentdesk_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await runAdminStatement(`create schema ${schema}`);
  const database = openDatabase({ url: testPostgresUrl, schema, poolSize: 8 });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.destroy();
    await runAdminStatement(`drop schema if exists ${schema} cascade`);
    throw error;
  }
  return testDatabaseOver(database, () => runAdminStatement(`drop schema if exists ${schema} cascade`));
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
