import type { Role } from '@agentdesk/authz';
import { generateConsoleSessionToken } from '../../src/auth/console-session-token';
import { generateApiKey } from '../../src/core/api-key-format';
import type { ApiKey, Repositories, Session, User } from '@agentdesk/storage';

/** A stored key and the full key string a client sends. */
export interface IssuedKey {
  readonly key: string;
  readonly stored: ApiKey;
}

/** Creates a local user. */
export function createLocalUser(repositories: Repositories, externalId: string): Promise<User> {
  return repositories.users.create({ externalId, displayName: externalId });
}

/** Issues a key held by a user. */
export async function issueUserKey(
  repositories: Repositories,
  user: User,
  role: Exclude<Role, 'portal'> = 'user',
): Promise<IssuedKey> {
  const generated = generateApiKey();
  const stored = await repositories.apiKeys.create({
    id: generated.keyId,
    prefix: generated.visiblePrefix,
    secretHash: generated.secretHash,
    role,
    ownerUserId: user.id,
    portalId: user.portalId,
    label: `${role} key of ${user.externalId}`,
  });
  return { key: generated.key, stored };
}

/** Issues a portal key. */
/** The two staff keys most suites need: an admin (user `root`) and a viewer (user `qa`). */
export async function issueStaffKeys(
  repositories: Repositories,
): Promise<{ adminKey: IssuedKey; viewerKey: IssuedKey }> {
  return {
    adminKey: await issueUserKey(repositories, await createLocalUser(repositories, 'root'), 'admin'),
    viewerKey: await issueUserKey(repositories, await createLocalUser(repositories, 'qa'), 'viewer'),
  };
}

export async function issuePortalKey(
  repositories: Repositories,
  portalId: string,
  trustClientUserId: boolean,
): Promise<IssuedKey> {
  const generated = generateApiKey();
  const stored = await repositories.apiKeys.create({
    id: generated.keyId,
    prefix: generated.visiblePrefix,
    secretHash: generated.secretHash,
    role: 'portal',
    portalId,
    trustClientUserId,
    label: `portal ${portalId}`,
  });
  return { key: generated.key, stored };
}

/** Creates a session owned by `owner`, optionally with a few messages. */
export async function createSession(
  repositories: Repositories,
  owner: User,
  label = 'a session',
  messages = 0,
): Promise<Session> {
  const session = await repositories.sessions.create({ ownerUserId: owner.id, label });
  for (let index = 0; index < messages; index += 1) {
    await repositories.turnStore.append(owner.id, session.id, {
      role: index % 2 === 0 ? 'user' : 'assistant',
      contentParts: [{ type: 'text', text: `message ${index + 1}` }],
    });
  }
  return repositories.sessions.getForOwner(owner.id, session.id);
}

/** A well-formed id that names nothing. */
export const missingId = '00000000-0000-7000-8000-000000000000';

/** Opens a console session for a key's holder, as `POST /v1/console-sessions` would; returns its token. */
export async function openConsoleSession(
  repositories: Repositories,
  key: IssuedKey,
  timeouts: { idleTimeoutMs: number; absoluteTimeoutMs: number } = {
    idleTimeoutMs: 60 * 60 * 1000,
    absoluteTimeoutMs: 8 * 60 * 60 * 1000,
  },
): Promise<{ token: string; id: string }> {
  const { token, tokenHash } = generateConsoleSessionToken();
  const session = await repositories.consoleSessions.create({
    tokenHash,
    userId: key.stored.ownerUserId ?? '',
    wayIn: 'api-key',
    apiKeyId: key.stored.id,
    ...timeouts,
    clientAddress: null,
    userAgent: null,
  });
  return { token, id: session.id };
}
