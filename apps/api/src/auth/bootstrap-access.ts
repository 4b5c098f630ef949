import type { Logger } from 'pino';
import { ConfigError, type AppConfig } from '../config/app-config';
import { StorageError, StorageErrorCode, type Repositories } from '@agentdesk/storage';
import { hashApiKey, parseApiKey } from '../core/api-key-format';
import { ADMIN_EXTERNAL_ID, issueAdminKey } from './admin-keys';
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
}

/**
 * Makes sure someone can administer the API:
 * - with `AGENTDESK_ADMIN_KEY`, that key exists as an admin key (created if new; a revoked or
 *   non-admin key with that value stops the start, since silently re-enabling it would undo a revocation);
 * - otherwise it only reports whether the database has any key. The first admin key is created
 *   by `issueFirstAdminKey` after the server listens, so a start that fails (a port in use) leaves
 *   no key behind that nobody ever saw.
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
    await ensureEnvironmentAdminKey(repositories, environmentKey);
    logger.info('admin key from AGENTDESK_ADMIN_KEY is active');
    return { adminKeySource: 'environment', devUserId };
  }
  return { adminKeySource: (await hasAnyKey(repositories)) ? 'existing' : 'none', devUserId };
}

/**
 * First start: when the database holds no key at all (revoked ones count), creates an admin key
 * and returns it for the caller to print once — it is never logged. Call it once the server
 * listens; `undefined` when any key exists.
 */
export async function issueFirstAdminKey(
  repositories: Repositories,
  logger: Logger,
): Promise<string | undefined> {
  if (await hasAnyKey(repositories)) return undefined;
  const issued = await issueAdminKey(repositories, 'Bootstrap admin key (first start)');
  logger.warn(
    { apiKeyPrefix: issued.stored.prefix },
    'first start: created an admin API key (printed once on the console, never logged)',
  );
  return issued.key;
}

async function hasAnyKey(repositories: Repositories): Promise<boolean> {
  const anyKey = await repositories.apiKeys.list({ includeRevoked: true }, { limit: 1 });
  return anyKey.items.length > 0;
}

async function ensureEnvironmentAdminKey(repositories: Repositories, key: string): Promise<void> {
  const parsed = parseApiKey(key);
  if (parsed === undefined) throw new ConfigError(['AGENTDESK_ADMIN_KEY: not in the API key format']);
  const secretHash = hashApiKey(key);
  const active = await repositories.apiKeys.findActiveBySecretHash(secretHash);
  if (active !== undefined) {
    if (active.role !== 'admin')
      throw new ConfigError(['AGENTDESK_ADMIN_KEY: this key exists but is not an admin key']);
    return;
  }
  const sameId = await repositories.apiKeys.getById(parsed.keyId).catch((error: unknown) => {
    if (error instanceof StorageError && error.code === StorageErrorCode.NotFound) return undefined;
    throw error;
  });
  if (sameId !== undefined) {
    throw new ConfigError([
      'AGENTDESK_ADMIN_KEY: this key was revoked (or its id is taken); configure a new key',
    ]);
  }
  const admin = await findOrCreateLocalUser(repositories, ADMIN_EXTERNAL_ID, 'Administrator');
  await repositories.apiKeys.create({
    id: parsed.keyId,
    prefix: parsed.visiblePrefix,
    secretHash,
    role: 'admin',
    ownerUserId: admin.id,
    label: 'Admin key from AGENTDESK_ADMIN_KEY',
  });
}
