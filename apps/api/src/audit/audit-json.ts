import { z } from 'zod';
import type { AuditEntry } from '@agentdesk/storage';

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
  requestId: z.string().nullable(),
});
export type AuditEntryJson = z.infer<typeof auditEntryJsonSchema>;

export function toAuditEntryJson(entry: AuditEntry): AuditEntryJson {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actorPrincipalId: entry.actorPrincipalId,
    actorApiKeyId: entry.actorApiKeyId,
    action: entry.action,
    targetUserId: entry.targetUserId,
    sessionId: entry.sessionId,
    reason: entry.reason,
    requestId: entry.requestId,
  };
}
