import { Migrator, type MigrationResult } from 'kysely';
import type { AppDatabase } from './open-database';
import { migrationProvider } from './migrations/migrations';

/**
 * Applies every pending migration. Safe to call from several API replicas at once: Kysely's
 * migrator takes a lock (a row lock on PostgreSQL, the write lock on SQLite).
 *
 * @returns the names of the migrations this call applied (empty when already up to date)
 */
export async function migrateToLatest(database: AppDatabase): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: migrationProvider(database.dialect),
    // Kysely otherwise finds its bookkeeping tables in whichever schema has them first, so a second
    // schema on the same server would be taken as already migrated.
    ...(database.schema !== undefined && { migrationTableSchema: database.schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result: MigrationResult) => result.status === 'Error')?.migrationName;
    throw new Error(
      failed === undefined ? 'Database migration failed' : `Database migration ${failed} failed`,
      { cause: error },
    );
  }
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}
