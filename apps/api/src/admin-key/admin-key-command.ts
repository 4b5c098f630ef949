import {
  createRepositories,
  explainDatabaseOpenFailure,
  migrateToLatest,
  openDatabase,
  type AppDatabase,
} from '@agentdesk/storage';
import pino from 'pino';
import { auditActions } from '../shared/audit/audit-actions';
import { recordHostChange } from '../shared/audit/host-command-audit';
import { issueAdminKey, revokeOtherAdminKeys } from '../auth/admin-keys';
import { broadcastRevocations } from '../cluster/broadcast-revocations';
import { ConfigError, describeDatabase, loadConfig, type AppConfig } from '../config/app-config';

/** Where the command writes: the key alone on `key` (stdout), everything else on `note` (stderr). */
export interface AdminKeyCommandOutput {
  key(line: string): void;
  note(line: string): void;
}

export const ADMIN_KEY_USAGE = [
  'Usage: npm run admin-key [-- --revoke-others]',
  '',
  'Issues a new admin API key in the database DATABASE_URL names (default sqlite:data/agentdesk.db)',
  'and prints it once. Whoever can write that database is trusted: no running server or key is needed.',
  '',
  '  --revoke-others   also revoke every other active admin key (e.g. after a key leaked)',
  '  --help            this text',
].join('\n');

const ISSUED_LABEL = 'Admin key issued from the host (npm run admin-key)';

type Arguments = { readonly help: boolean; readonly revokeOthers: boolean } | { readonly unknown: string };

/**
 * `npm run admin-key`: issues an admin key from the host, for an operator who lost the key of the
 * first start (or never saw it). Uses the API's configuration and storage, migrating a database
 * that is still empty. Returns the process exit code: 0 done, 1 database unavailable, 2 bad input.
 */
export async function runAdminKeyCommand(
  argv: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
  output: AdminKeyCommandOutput,
): Promise<number> {
  const parsed = parseArguments(argv);
  if ('unknown' in parsed) {
    output.note(`Unknown argument "${parsed.unknown}".\n\n${ADMIN_KEY_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    output.note(ADMIN_KEY_USAGE);
    return 0;
  }
  let config: AppConfig;
  try {
    config = loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) {
      output.note(error.message);
      return 2;
    }
    throw error;
  }
  const url = config.database.url.reveal();
  let database: AppDatabase | undefined;
  try {
    database = openDatabase({ url, poolSize: 1 });
    await migrateToLatest(database);
    const repositories = createRepositories(database);
    const issued = await issueAdminKey(repositories, ISSUED_LABEL);
    const revoked = parsed.revokeOthers ? await revokeOtherAdminKeys(repositories, issued.stored.id) : [];
    // Admin keys made or revoked from the host are changes like any other: in the audit log.
    for (const [action, key] of [
      [auditActions.hostAdminKeyIssue, issued.stored] as const,
      ...revoked.map((key) => [auditActions.hostAdminKeyRevoke, key] as const),
    ]) {
      await recordHostChange(repositories, action, {
        target: { kind: 'api-key', id: key.id },
        targetUserId: key.ownerUserId,
        details: { role: key.role, prefix: key.prefix, label: key.label },
      });
    }
    output.note(
      `New admin key ${issued.stored.prefix} in ${describeDatabase(config.database.url)}. It is shown this once:`,
    );
    output.key(issued.key);
    if (parsed.revokeOthers) {
      output.note(
        `Revoked ${revoked.length} other admin key(s)${revoked.length === 0 ? '' : `: ${revoked.map((key) => key.prefix).join(', ')}`}.`,
      );
      if (revoked.length > 0)
        output.note(
          await tellReplicas(
            config,
            revoked.map((key) => key.id),
          ),
        );
    }
    output.note('Send it as "Authorization: Bearer <key>" or "X-API-Key: <key>"; check it with GET /v1/me.');
    return 0;
  } catch (error) {
    const databaseProblem = explainDatabaseOpenFailure(error, url);
    if (databaseProblem === undefined) throw error;
    output.note(databaseProblem);
    return 1;
  } finally {
    await database?.destroy();
  }
}

/** Running replicas cache verified keys briefly: tell them, through Redis when there is one. */
async function tellReplicas(config: AppConfig, apiKeyIds: readonly string[]): Promise<string> {
  const silent = pino({ level: 'silent' });
  try {
    return (await broadcastRevocations(config.cluster, apiKeyIds, silent))
      ? 'Running API replicas were told through Redis and refuse the revoked keys at once.'
      : `Running API replicas refuse the revoked keys within ${config.cluster.keyCacheTtlMs} ms (their key cache; no AGENTDESK_REDIS_URL).`;
  } catch (error) {
    return `Could not tell running replicas through Redis (${error instanceof Error ? error.message : String(error)}); they refuse the revoked keys within ${config.cluster.keyCacheTtlMs} ms.`;
  }
}

function parseArguments(argv: readonly string[]): Arguments {
  let help = false;
  let revokeOthers = false;
  for (const argument of argv) {
    if (argument === '--help' || argument === '-h') help = true;
    else if (argument === '--revoke-others') revokeOthers = true;
    else return { unknown: argument };
  }
  return { help, revokeOthers };
}
