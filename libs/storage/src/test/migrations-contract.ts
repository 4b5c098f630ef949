import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate';
import { useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

/** The one migration set: applied once, then a no-op. */
export function describeMigrationsContract(factory: TestDatabaseFactory): void {
  describe('migrations', () => {
    const current = useTestDatabase(factory);

    it('is already at the latest version and re-running applies nothing', async () => {
      const { database } = current();
      expect(await migrateToLatest(database)).toEqual([]);
      const tables = await database.db.introspection.getTables();
      // PostgreSQL introspection lists every schema's tables: keep this test database's own (another
      // process may have migrated tables into `public` of the shared test database).
      const ownSchema =
        database.dialect === 'postgres'
          ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
              ?.schema
          : undefined;
      expect(
        tables
          .filter((table) => ownSchema === undefined || table.schema === ownSchema)
          .map((table) => table.name)
          .filter((name) => !name.startsWith('kysely_'))
          // SQLite's search index (migration 0006) lives in its own tables; PostgreSQL's is a column.
          .filter((name) => !name.startsWith('message_search'))
          .sort(),
      ).toEqual([
        'api_keys',
        'audit_log',
        'console_sessions',
        'messages',
        'model_prices',
        'qa_run_cells',
        'qa_suite_runs',
        'qa_suite_versions',
        'qa_suites',
        'sandbox_builds',
        'sessions',
        'sso_identities',
        'sso_sign_in_codes',
        'structured_output_runs',
        'tool_results',
        'usage_daily_totals',
        'usage_events',
        'users',
      ]);
    });
  });
}
