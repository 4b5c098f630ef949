import type { ApiKey, NewApiKey, Repositories } from '@agentdesk/storage';
import { generateApiKey } from '../core/api-key-format';
import { findOrCreateLocalUser } from './local-user';

/** The local user behind admin keys created at start or from the host. */
export const ADMIN_EXTERNAL_ID = 'admin';

/** A new admin key: the full key string is shown once and never stored. */
export interface IssuedAdminKey {
  readonly key: string;
  readonly stored: ApiKey;
}

/** Creates an admin key held by the local `admin` user (created when missing). */
export async function issueAdminKey(repositories: Repositories, label: string): Promise<IssuedAdminKey> {
  const { key, input } = await newAdminKey(repositories, label);
  return { key, stored: await repositories.apiKeys.create(input) };
}

/**
 * Creates an admin key only when the database holds no key at all (revoked ones count);
 * `undefined` otherwise — also when another process stored the first key a moment earlier, so
 * replicas starting together on a new database print one first key between them, not one each.
 */
export async function issueFirstAdminKeyOnce(
  repositories: Repositories,
  label: string,
): Promise<IssuedAdminKey | undefined> {
  const { key, input } = await newAdminKey(repositories, label);
  const stored = await repositories.apiKeys.createFirst(input);
  return stored === undefined ? undefined : { key, stored };
}

async function newAdminKey(
  repositories: Repositories,
  label: string,
): Promise<{ key: string; input: NewApiKey }> {
  const admin = await findOrCreateLocalUser(repositories, ADMIN_EXTERNAL_ID, 'Administrator');
  const generated = generateApiKey();
  return {
    key: generated.key,
    input: {
      id: generated.keyId,
      prefix: generated.visiblePrefix,
      secretHash: generated.secretHash,
      role: 'admin',
      ownerUserId: admin.id,
      label,
    },
  };
}

/** Revokes every active admin key except `keptApiKeyId` (a leaked key's rotation); returns those revoked. */
export async function revokeOtherAdminKeys(
  repositories: Repositories,
  keptApiKeyId: string,
): Promise<ApiKey[]> {
  const others: ApiKey[] = [];
  let cursor: string | null = null;
  do {
    const page = await repositories.apiKeys.list({}, { limit: 100, cursor });
    others.push(...page.items.filter((key) => key.role === 'admin' && key.id !== keptApiKeyId));
    cursor = page.nextCursor;
  } while (cursor !== null);
  const revoked: ApiKey[] = [];
  for (const key of others) revoked.push(await repositories.apiKeys.revoke(key.id));
  return revoked;
}
