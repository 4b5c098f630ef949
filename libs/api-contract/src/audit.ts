import { z } from 'zod';

/** An audit record as the API returns it. */
export const auditEntryJsonSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorPrincipalId: z.string(),
  actorApiKeyId: z.string().nullable(),
  action: z.string(),
  targetUserId: z.string().nullable(),
  sessionId: z.string().nullable(),
  reason: z.string().nullable(),
  /** The server's own id of the audited request (in its logs and its error body). */
  requestId: z.string().nullable(),
  /** The client's `X-Request-Id`, untrusted: for correlation with the client's logs only. */
  clientRequestId: z.string().nullable(),
  /** What a listing showed: `{ filter, count }`; null for single reads. */
  details: z.record(z.string(), z.unknown()).nullable(),
});
