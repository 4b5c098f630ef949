import type { Migration, MigrationProvider } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';
import { initialSchema } from './0001-initial-schema';
import { agentTurns } from './0002-agent-turns';
import { idempotencyFingerprints } from './0003-idempotency-fingerprints';
import { auditClientRequestId } from './0004-audit-client-request-id';
import { sandboxBuilds } from './0005-sandbox-builds';
import { messageSearch } from './0006-message-search';
import { sessionFiltersAuditDedup } from './0007-session-filters-audit-dedup';
import { usageEvents } from './0008-usage-events';
import { messageTokenCounts } from './0009-message-token-counts';
import { sessionTriggeredSandboxBuilds } from './0010-session-triggered-sandbox-builds';
import { consoleSessions } from './0011-console-sessions';
import { auditOutcomesAndTargets } from './0012-audit-outcomes-and-targets';
import { ssoIdentities } from './0013-sso-identities';
import { modelPrices } from './0014-model-prices';
import { people } from './0015-people';
import { exportIndexes } from './0016-export-indexes';
import { searchPrefixes } from './0017-search-prefixes';
import { qaSuites } from './0018-qa-suites';
import { qaKeyRole } from './0019-qa-key-role';
import { sqliteUnicodeKeys } from './0020-sqlite-unicode-keys';

/**
 * The one migration set, in code (no files to find at runtime, so it works the same from
 * `tsx`, a bundle or a test). Names sort in application order; never rename or edit a shipped one.
 */
export function migrationProvider(dialect: DatabaseDialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-initial-schema': initialSchema(dialect),
    '0002-agent-turns': agentTurns(dialect),
    '0003-idempotency-fingerprints': idempotencyFingerprints(),
    '0004-audit-client-request-id': auditClientRequestId(dialect),
    '0005-sandbox-builds': sandboxBuilds(dialect),
    '0006-message-search': messageSearch(dialect),
    '0007-session-filters-audit-dedup': sessionFiltersAuditDedup(),
    '0008-usage-events': usageEvents(),
    '0009-message-token-counts': messageTokenCounts(),
    '0010-session-triggered-sandbox-builds': sessionTriggeredSandboxBuilds(),
    '0011-console-sessions': consoleSessions(),
    '0012-audit-outcomes-and-targets': auditOutcomesAndTargets(),
    '0013-sso-identities': ssoIdentities(),
    '0014-model-prices': modelPrices(),
    '0015-people': people(dialect),
    '0016-export-indexes': exportIndexes(),
    '0017-search-prefixes': searchPrefixes(dialect),
    '0018-qa-suites': qaSuites(dialect),
    '0019-qa-key-role': qaKeyRole(dialect),
    '0020-sqlite-unicode-keys': sqliteUnicodeKeys(dialect),
  };
  return { getMigrations: () => Promise.resolve(migrations) };
}
