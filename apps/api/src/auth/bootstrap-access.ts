import type { Logger } from 'pino';
import { ConfigError, type AppConfig } from '../config/app-config';
import { StorageError, StorageErrorCode, type ApiKey, type Repositories } from '@agentdesk/storage';
import { hashApiKey, hashesEqual, parseApiKey } from '../core/api-key-format';
import { ADMIN_EXTERNAL_ID, issueFirstAdminKeyOnce, type IssuedAdminKey } from './admin-keys';
import { findOrCreateLocalUser } from './local-user';

/** The local user the dev-mode anonymous principal acts as. */
export const DEV_USER_EXTERNAL_ID = 'dev-mode-anonymous';

/** What the start found about access, before the server listens. */
export interface BootstrapResult {
  /**
   * `environment`: `AGENTDESK_ADMIN_KEY` is ensured; `existing`: keys already exist; `none`: the
   * database has no key yet, and `issueFirstAdminKey` creates one once the server listens.
   */
  readonly adminKeySource: 'environment' | 'existing' | 'none';
  /** The stored user of the dev-mode anonymous principal; null outside dev mode. */
  readonly devUserId: string | null;
  /** The key this start stored from `AGENTDESK_ADMIN_KEY` (not when it existed already): for the audit log. */
  readonly storedAdminKey: ApiKey | undefined;
}

/**
 * Makes sure someone can administer the API:
 * - with `AGENTDESK_ADMIN_KEY`, that key exists as an admin key (created if new; a revoked or
 *   non-admin key with that value stops the start, since silently re-enabling it would undo a revocation);
 * - otherwise it only reports whether the database has any key. The first admin key is created
 *   by `issueFirstAdminKey` after the server listens, so a start that fails (a port in use) leaves
 *   no key behind that nobody ever saw.
 *
 * Replicas run this at the same moment when an orchestrator starts a deployment: every step
 * converges (the users are found-or-created, the key is inserted-or-verified) instead of failing
 * the replica that comes second.
 */
export async function bootstrapAccess(
  repositories: Repositories,
  config: AppConfig,
  logger: Logger,
): Promise<BootstrapResult> {
  const devUserId = config.auth.devMode
    ? (await findOrCreateLocalUser(repositories, DEV_USER_EXTERNAL_ID, 'Dev mode (anonymous)')).id
    : null;
  const environmentKey = config.auth.adminKey?.reveal();

  if (environmentKey !== undefined) {
    const storedAdminKey = await ensureEnvironmentAdminKey(repositories, environmentKey);
    logger.info('admin key from AGENTDESK_ADMIN_KEY is active');
    return { adminKeySource: 'environment', devUserId, storedAdminKey };
  }
  return {
    adminKeySource: (await hasAnyKey(repositories)) ? 'existing' : 'none',
    devUserId,
    storedAdminKey: undefined,
  };
}

/**
 * First start: when the database holds no key at all (revoked ones count), creates an admin key
 * and returns it for the caller to print once — it is never logged. Call it once the server
 * listens; `undefined` when any key exists. Of replicas starting together on a new database,
 * exactly one creates (and prints) it.
 */
export async function issueFirstAdminKey(
  repositories: Repositories,
  logger: Logger,
): Promise<IssuedAdminKey | undefined> {
  // The common case (keys exist) needs no lock: only a new database goes on to `createFirst`.
  if (await hasAnyKey(repositories)) return undefined;
  const issued = await issueFirstAdminKeyOnce(repositories, 'Bootstrap admin key (first start)');
  if (issued === undefined) return undefined;
  logger.warn(
    { apiKeyPrefix: issued.stored.prefix },
    'first start: created an admin API key (printed once on the console, never logged)',
  );
  return issued;
}

async function hasAnyKey(repositories: Repositories): Promise<boolean> {
  const anyKey = await repositories.apiKeys.list({ includeRevoked: true }, { limit: 1 });
  return anyKey.items.length > 0;
}

/**
 * Insert-or-verify: the key is stored unless its id is; a stored row with that id is then checked
 * against the key. The same key inserted by another replica a moment earlier is the same key (this
 * start goes on); a revoked key, a key of another role, or another key under the same id stops the
 * start with a message that says which.
 */
async function ensureEnvironmentAdminKey(
  repositories: Repositories,
  key: string,
): Promise<ApiKey | undefined> {
  const parsed = parseApiKey(key);
  if (parsed === undefined) throw new ConfigError(['AGENTDESK_ADMIN_KEY: not in the API key format']);
  const secretHash = hashApiKey(key);
  const stored = await findById(repositories, parsed.keyId);
  if (stored !== undefined) {
    verifyEnvironmentAdminKey(stored, parsed.visiblePrefix, secretHash);
    return undefined;
  }
  const admin = await findOrCreateLocalUser(repositories, ADMIN_EXTERNAL_ID, 'Administrator');
  try {
    return await repositories.apiKeys.create({
      id: parsed.keyId,
      prefix: parsed.visiblePrefix,
      secretHash,
      role: 'admin',
      ownerUserId: admin.id,
      label: 'Admin key from AGENTDESK_ADMIN_KEY',
    });
  } catch (error) {
    // Another replica stored a row with this id between the read and the insert: verify that one.
    if (!(error instanceof StorageError && error.code === StorageErrorCode.Conflict)) throw error;
    const winner = await findById(repositories, parsed.keyId);
    if (winner === undefined) throw error;
    verifyEnvironmentAdminKey(winner, parsed.visiblePrefix, secretHash);
    return undefined;
  }
}

function verifyEnvironmentAdminKey(stored: ApiKey, visiblePrefix: string, secretHash: string): void {
  if (!hashesEqual(secretHash, stored.secretHash)) {
    throw new ConfigError([
      `AGENTDESK_ADMIN_KEY: its key id (${visiblePrefix}) belongs to a different key stored here; configure a new key`,
    ]);
  }
  if (stored.revokedAt !== null) {
    throw new ConfigError([
      `AGENTDESK_ADMIN_KEY: this key was revoked on ${stored.revokedAt.toISOString()}; a restart never re-enables a revoked key, configure a new one`,
    ]);
  }
  if (stored.role !== 'admin')
    throw new ConfigError([
      `AGENTDESK_ADMIN_KEY: this key exists but is a ${stored.role} key, not an admin key; configure a new key`,
    ]);
}

async function findById(repositories: Repositories, apiKeyId: string): Promise<ApiKey | undefined> {
  return repositories.apiKeys.getById(apiKeyId).catch((error: unknown) => {
    if (error instanceof StorageError && error.code === StorageErrorCode.NotFound) return undefined;
    throw error;
  });
}
