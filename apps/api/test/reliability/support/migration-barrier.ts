import pg from 'pg';
import { waitFor } from './api-process';

/**
 * The advisory lock Kysely's PostgreSQL migrator takes around migrating (`PostgresAdapter`'s
 * LOCK_ID in kysely 0.28). Holding it is how a test lines processes up: each blocks on it at the
 * same step of its start, and all go on together once it is released.
 */
const kyselyMigrationLockId = '3853314791062309107';

/** A held migration lock on one database; `release` lets every waiting process go on at once. */
export interface MigrationBarrier {
  /** Resolves once `count` other sessions wait for the lock. */
  waitForWaiters(count: number): Promise<void>;
  release(): Promise<void>;
}

/** Takes Kysely's migration lock on the database at `url` (a new, unmigrated one). */
export async function holdMigrationLock(url: string): Promise<MigrationBarrier> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`select pg_advisory_lock(${kyselyMigrationLockId})`);
  let released = false;
  return {
    async waitForWaiters(count) {
      await waitFor(
        async () => {
          const result = await client.query<{ waiting: string }>(
            `select count(*) as waiting from pg_locks
              where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
          );
          return Number(result.rows[0]?.waiting ?? 0) >= count ? true : undefined;
        },
        `${count} processes to wait for the migration lock`,
        // Starting a process compiles the API first: slow on a loaded 2-core machine.
        4_800,
      );
    },
    async release() {
      if (released) return;
      released = true;
      try {
        await client.query(`select pg_advisory_unlock(${kyselyMigrationLockId})`);
      } finally {
        await client.end();
      }
    },
  };
}
