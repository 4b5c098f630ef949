import { postgresTestDatabase } from '../../src/storage/test/postgres-test-database';
import { sqliteTestDatabase } from '../../src/storage/test/sqlite-test-database';
import type { TestDatabaseFactory } from '../../src/storage/test/test-database';

/** The two engines every HTTP suite runs on. */
export type Engine = 'sqlite' | 'postgres';

/** The storage layer's isolated test databases (a temp SQLite file, or a PostgreSQL schema). */
export const testDatabaseFactories: Readonly<Record<Engine, TestDatabaseFactory>> = {
  sqlite: sqliteTestDatabase,
  postgres: postgresTestDatabase,
};
