// Test helpers other projects' tests may use: isolated, migrated databases on both engines.
export { sqliteTestDatabase } from './test/sqlite-test-database';
export {
  createOwnPostgresDatabase,
  postgresTestDatabase,
  testPostgresUrl,
  type OwnPostgresDatabase,
  type OwnPostgresDatabaseOptions,
} from './test/postgres-test-database';
export {
  testDatabaseOver,
  TestClock,
  type TestDatabase,
  type TestDatabaseFactory,
} from './test/test-database';
