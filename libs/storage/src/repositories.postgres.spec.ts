import { describeRepositorySuite } from './test/repository-suite';
import { postgresTestDatabase } from './test/postgres-test-database';

describeRepositorySuite('PostgreSQL', postgresTestDatabase);
