import { Migrator, type MigrationResult } from 'kysely';
import type { AppDatabase } from './open-database';
import { migrationProvider } from './migrations/migrations';

/**
 * Applies every pending migration. Safe to call from several API replicas at once, also on a new
 * database: on PostgreSQL Kysely's migrator (0.28) holds a session advisory lock while it reads
 * what ran and migrates, so the others wait and then find nothing to do; its bookkeeping tables
 * are created before that lock, and a creation that loses a race is checked and ignored
 * (`migrate.postgres.spec.ts` starts four at once on an empty database). SQLite: one process.
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
