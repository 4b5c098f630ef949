import { describeRepositorySuite } from './test/repository-suite';
import { sqliteTestDatabase } from './test/sqlite-test-database';

describeRepositorySuite('SQLite', sqliteTestDatabase);
