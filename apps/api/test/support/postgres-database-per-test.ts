// A database per test on PostgreSQL (why: libs/storage/src/test/postgres-test-database.ts).
export {
  createOwnPostgresDatabase,
  postgresTestDatabase as postgresDatabasePerTest,
  type OwnPostgresDatabase,
} from '@agentdesk/storage/testing';
