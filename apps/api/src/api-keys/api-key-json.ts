import { z } from 'zod';
import type { ApiKey } from '@agentdesk/storage';

/** An API key's metadata; the secret and its hash are never returned. */
export const apiKeyJsonSchema = z.object({
  id: z.string(),
  prefix: z.string(),
  role: z.enum(['user', 'portal', 'viewer', 'admin']),
  label: z.string(),
  ownerUserId: z.string().nullable(),
  portalId: z.string().nullable(),
  trustClientUserId: z.boolean(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyJson = z.infer<typeof apiKeyJsonSchema>;

/** The answer to a key creation: the only time the full key is shown. */
export const createdApiKeyJsonSchema = z.object({ apiKey: apiKeyJsonSchema, key: z.string() });
export type CreatedApiKeyJson = z.infer<typeof createdApiKeyJsonSchema>;

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
