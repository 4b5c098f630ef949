import type { ApiKey } from '@agentdesk/storage';
import type { ApiKeyJson } from '@agentdesk/api-contract';

export {
  apiKeyJsonSchema,
  createdApiKeyJsonSchema,
  type ApiKeyJson,
  type CreatedApiKeyJson,
} from '@agentdesk/api-contract';

export function toApiKeyJson(key: ApiKey): ApiKeyJson {
  return {
    id: key.id,
    prefix: key.prefix,
    role: key.role,
    label: key.label,
    ownerUserId: key.ownerUserId,
    portalId: key.portalId,
    trustClientUserId: key.trustClientUserId,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt === null ? null : key.revokedAt.toISOString(),
    lastUsedAt: key.lastUsedAt === null ? null : key.lastUsedAt.toISOString(),
  };
}
