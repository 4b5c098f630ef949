import { sqliteTestDatabase } from '../../src/storage/test/sqlite-test-database';
import type { TestDatabaseFactory } from '../../src/storage/test/test-database';
import { postgresDatabasePerTest } from './postgres-database-per-test';

/** The two engines every HTTP suite runs on. */
export type Engine = 'sqlite' | 'postgres';

/** Isolated, migrated test databases: a temp SQLite file, or a PostgreSQL database of its own. */
export const testDatabaseFactories: Readonly<Record<Engine, TestDatabaseFactory>> = {
  sqlite: sqliteTestDatabase,
  postgres: postgresDatabasePerTest,
};
