import { z } from 'zod';

/** The roles a key can be created for. */
export const apiKeyRoles = ['user', 'portal', 'viewer', 'qa', 'admin'] as const;
export type ApiKeyRole = (typeof apiKeyRoles)[number];

/** An API key's metadata; the secret and its hash are never returned. */
export const apiKeyJsonSchema = z.object({
  id: z.string(),
  prefix: z.string(),
  role: z.enum(apiKeyRoles),
  label: z.string(),
  ownerUserId: z.string().nullable(),
  /** The owner's display name, in the admin routes' answers (null: no owner, or one without a name). */
  ownerName: z.string().nullable().optional(),
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
