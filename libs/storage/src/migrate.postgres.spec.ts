import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from './migrate';
import { migrationProvider } from './migrations/migrations';
import { openDatabase, type AppDatabase } from './open-database';
import { createOwnPostgresDatabase, type OwnPostgresDatabase } from './test/postgres-test-database';

const processes = 4;
const rounds = 3;

/**
 * Replicas started together on a new database each migrate it at start. Kysely's migrator takes a
 * PostgreSQL advisory lock around the migrations, and creates its own bookkeeping tables before
 * that lock, tolerating a concurrent creation; this proves both on an empty database, with one
 * pool per "replica" as separate processes have.
 */
describe('migrateToLatest on PostgreSQL, several processes at once on a new database', () => {
  let own: OwnPostgresDatabase | undefined;
  const pools: AppDatabase[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.destroy()));
    await own?.drop();
    own = undefined;
  });

  it('applies every migration exactly once; every caller succeeds; a later call applies nothing', async () => {
    const names = Object.keys(await migrationProvider('postgres').getMigrations()).sort();
    for (let round = 0; round < rounds; round++) {
      own = await createOwnPostgresDatabase({ migrated: false });
      const replicas = Array.from({ length: processes }, () => openDatabase({ url: own!.url, poolSize: 2 }));
      pools.push(...replicas);
      const applied = await Promise.all(replicas.map((replica) => migrateToLatest(replica)));
      expect(applied.flat().sort()).toEqual(names);
      // One caller migrated; the others found the work done once they had the lock.
      expect(applied.filter((names) => names.length > 0)).toHaveLength(1);
      expect(await migrateToLatest(own.database)).toEqual([]);
      await Promise.all(pools.splice(0).map((pool) => pool.destroy()));
      await own.drop();
      own = undefined;
    }
  });
});
