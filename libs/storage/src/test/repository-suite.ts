import { describe } from 'vitest';
import { describeApiKeysContract } from './api-keys-contract';
import { describeAuditContract } from './audit-contract';
import { describeConsoleSessionsContract } from './console-sessions-contract';
import { describeMessageSearchContract } from './message-search-contract';
import { describeMessagesContract } from './messages-contract';
import { describeTurnReadsContract } from './turn-reads-contract';
import { describeMigrationsContract } from './migrations-contract';
import { describeModelPricesContract } from './model-prices-contract';
import { describeOwnershipContract } from './ownership-contract';
import { describePaginationContract } from './pagination-contract';
import { describePeopleContract } from './people-contract';
import { describeSandboxBuildsContract } from './sandbox-builds-contract';
import { describeSessionsContract } from './sessions-contract';
import { describeSortedPaginationContract } from './sorted-pagination-contract';
import { describeStructuredOutputRunsContract } from './structured-output-runs-contract';
import type { TestDatabaseFactory } from './test-database';
import { describeToolResultsContract } from './tool-results-contract';
import { describeTurnsContract } from './turns-contract';
import { describeUsageEventsContract } from './usage-events-contract';
import { describeUsersContract } from './users-contract';

/** The one repository test suite; each engine's spec runs it with its own database factory. */
export function describeRepositorySuite(engine: string, factory: TestDatabaseFactory): void {
  describe(`storage repositories on ${engine}`, () => {
    describeMigrationsContract(factory);
    describeUsersContract(factory);
    describeApiKeysContract(factory);
    describeSessionsContract(factory);
    describeOwnershipContract(factory);
    describePaginationContract(factory);
    describeSortedPaginationContract(factory);
    describeMessagesContract(factory);
    describeTurnReadsContract(factory);
    describeMessageSearchContract(factory);
    describeToolResultsContract(factory);
    describeAuditContract(factory);
    describeTurnsContract(factory);
    describeStructuredOutputRunsContract(factory);
    describeSandboxBuildsContract(factory);
    describeUsageEventsContract(factory);
    describeModelPricesContract(factory);
    describeConsoleSessionsContract(factory);
    describePeopleContract(factory);
  });
}
