import type { ApiKey } from '@agentdesk/storage';
import type { ApiKeyJson } from '@agentdesk/api-contract';

export {
  apiKeyJsonSchema,
  createdApiKeyJsonSchema,
  type ApiKeyJson,
  type CreatedApiKeyJson,
} from '@agentdesk/api-contract';

/** A key as JSON; with `names` (user id → display name, read for the page at once), its owner's name too. */
export function toApiKeyJson(key: ApiKey, names?: ReadonlyMap<string, string>): ApiKeyJson {
  return {
    id: key.id,
    prefix: key.prefix,
    role: key.role,
    label: key.label,
    ownerUserId: key.ownerUserId,
    ...(names === undefined
      ? {}
      : { ownerName: key.ownerUserId === null ? null : (names.get(key.ownerUserId) ?? null) }),
    portalId: key.portalId,
    trustClientUserId: key.trustClientUserId,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt === null ? null : key.revokedAt.toISOString(),
    lastUsedAt: key.lastUsedAt === null ? null : key.lastUsedAt.toISOString(),
  };
}
