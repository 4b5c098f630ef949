import type { Logger } from 'pino';
import { ConfigError, type AppConfig } from '../config/app-config';
import { StorageError, StorageErrorCode, type Repositories } from '@agentdesk/storage';
import { generateApiKey, hashApiKey, parseApiKey } from './api-key-format';
import { findOrCreateLocalUser } from './local-user';

/** The local user behind the first admin key. */
export const ADMIN_EXTERNAL_ID = 'admin';
/** The local user the dev-mode anonymous principal acts as. */
export const DEV_USER_EXTERNAL_ID = 'dev-mode-anonymous';

/** What the first start did about access. */
export interface BootstrapResult {
  /** A new admin key, present only on the very first start without `AGENTDESK_ADMIN_KEY`: print it once. */
  readonly generatedAdminKey: string | undefined;
  /** `environment`: `AGENTDESK_ADMIN_KEY` is ensured; `generated`: first start; `existing`: keys already exist. */
  readonly adminKeySource: 'environment' | 'generated' | 'existing';
  /** The stored user of the dev-mode anonymous principal; null outside dev mode. */
  readonly devUserId: string | null;
}

/**
 * Makes sure someone can administer the API:
 * - with `AGENTDESK_ADMIN_KEY`, that key exists as an admin key (created if new; a revoked or
 *   non-admin key with that value stops the start, since silently re-enabling it would undo a revocation);
 * - otherwise, when the database has no key at all (first start), an admin key is generated and
 *   returned once, for the caller to print — it is never logged.
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
    return { generatedAdminKey: undefined, adminKeySource: 'environment', devUserId };
  }

  const anyKey = await repositories.apiKeys.list({ includeRevoked: true }, { limit: 1 });
  if (anyKey.items.length > 0) return { generatedAdminKey: undefined, adminKeySource: 'existing', devUserId };

  const admin = await findOrCreateLocalUser(repositories, ADMIN_EXTERNAL_ID, 'Administrator');
  const generated = generateApiKey();
  await repositories.apiKeys.create({
    id: generated.keyId,
    prefix: generated.visiblePrefix,
    secretHash: generated.secretHash,
    role: 'admin',
    ownerUserId: admin.id,
    label: 'Bootstrap admin key (first start)',
  });
  logger.warn(
    { apiKeyPrefix: generated.visiblePrefix },
    'first start: created an admin API key (printed once on the console, never logged)',
  );
  return { generatedAdminKey: generated.key, adminKeySource: 'generated', devUserId };
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
