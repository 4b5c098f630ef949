import { roles, scopes } from '@agentdesk/authz';
import { z } from 'zod';

/**
 * `GET /v1/me`: who the calling credential is. Metadata only: the key's secret and its hash are
 * never part of it (the visible `prefix` is what key listings show too).
 */
export const identityJsonSchema = z.object({
  /** `user`: a key held by one user (viewers and admins too); `portal`: a portal's shared key; `anonymous`: dev mode without a key. */
  kind: z.enum(['user', 'portal', 'anonymous']),
  role: z.enum(roles),
  /** What the role may do (the `libs/authz` table the guard checks). */
  scopes: z.array(z.enum(scopes)),
  /** The user the credential acts as; null for a portal key (it names its end user per request). */
  user: z
    .object({
      id: z.string(),
      externalId: z.string(),
      displayName: z.string().nullable(),
      portalId: z.string().nullable(),
    })
    .nullable(),
  /** The portal of a portal key (or of a portal end user's own key); null otherwise. */
  portal: z.object({ id: z.string(), trustClientUserId: z.boolean() }).nullable(),
  /** The API key that authenticated the request; null for the dev-mode anonymous user. */
  apiKey: z
    .object({
      id: z.string(),
      prefix: z.string(),
      label: z.string(),
      createdAt: z.string(),
    })
    .nullable(),
});
export type IdentityJson = z.infer<typeof identityJsonSchema>;
