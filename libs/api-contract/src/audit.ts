import { z } from 'zod';

/**
 * How an audited attempt ended: it `succeeded`; it was `refused` (a 4xx after the caller was
 * recognised — not allowed, invalid, not found — or a failed sign-in); or it `failed` (a 5xx).
 */
export const auditOutcomeSchema = z.enum(['succeeded', 'refused', 'failed']);
export type AuditOutcomeJson = z.infer<typeof auditOutcomeSchema>;

/** An audit record as the API returns it. */
export const auditEntryJsonSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorPrincipalId: z.string(),
  /**
   * What `actorPrincipalId` names: a `user`, a `portal` (the portal's id), the dev-mode `anonymous`
   * user, `unauthenticated` (a refused sign-in: nobody was recognised) or the `host` (a command run
   * on the server, `npm run admin-key`).
   */
  actorKind: z.enum(['user', 'portal', 'anonymous', 'unauthenticated', 'host']),
  /** The actor's display name when the actor is a user who has one (null otherwise). */
  actorName: z.string().nullable().optional(),
  actorApiKeyId: z.string().nullable(),
  /** How the actor came in: `api-key`, `console-session`, `host-command`; null on records from before it was kept. */
  wayIn: z.string().nullable(),
  action: z.string(),
  outcome: auditOutcomeSchema,
  /** What a change changed (or tried to): e.g. `{ kind: 'api-key', id }`; null for reads and listings. */
  target: z.object({ kind: z.string(), id: z.string().nullable() }).nullable(),
  targetUserId: z.string().nullable(),
  /** The target user's display name (null: no target user, or one without a name). */
  targetUserName: z.string().nullable().optional(),
  sessionId: z.string().nullable(),
  reason: z.string().nullable(),
  /** The server's own id of the audited request (in its logs and its error body). */
  requestId: z.string().nullable(),
  /** The client's `X-Request-Id`, untrusted: for correlation with the client's logs only. */
  clientRequestId: z.string().nullable(),
  /**
   * What a listing showed (`{ filter, count }`), what a change changed, and for a refused or failed
   * attempt its HTTP `status` and error `code`; null for single reads.
   */
  details: z.record(z.string(), z.unknown()).nullable(),
});
