import { describe } from 'vitest';
import { describeQaRepositoriesContract } from './test/qa-repositories.cases';
import { postgresTestDatabase } from './test/postgres-test-database';

describe('QA suite storage on PostgreSQL', () => describeQaRepositoriesContract(postgresTestDatabase));
