import { describe } from 'vitest';
import { describeQaRepositoriesContract } from './test/qa-repositories.cases';
import { sqliteTestDatabase } from './test/sqlite-test-database';

describe('QA suite storage on SQLite', () => describeQaRepositoriesContract(sqliteTestDatabase));
