import { sqliteTestDatabase } from '@agentdesk/storage/testing';
import type { TestDatabaseFactory } from '@agentdesk/storage/testing';
import { postgresDatabasePerTest } from './postgres-database-per-test';

/** The two engines every HTTP suite runs on. */
export type Engine = 'sqlite' | 'postgres';

/** Isolated, migrated test databases: a temp SQLite file, or a PostgreSQL database of its own. */
export const testDatabaseFactories: Readonly<Record<Engine, TestDatabaseFactory>> = {
  sqlite: sqliteTestDatabase,
  postgres: postgresDatabasePerTest,
};
