import type { z } from 'zod';
import { auditEntryJsonSchema } from '@agentdesk/api-contract';
import type { AuditEntry, JsonObject } from '@agentdesk/storage';

export { auditEntryJsonSchema };

export type AuditEntryJson = Omit<z.infer<typeof auditEntryJsonSchema>, 'details'> & {
  details: JsonObject | null;
};

export function toAuditEntryJson(entry: AuditEntry): AuditEntryJson {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actorPrincipalId: entry.actorPrincipalId,
    actorKind: entry.actorKind,
    actorApiKeyId: entry.actorApiKeyId,
    wayIn: entry.wayIn,
    action: entry.action,
    outcome: entry.outcome,
    target: entry.target,
    targetUserId: entry.targetUserId,
    sessionId: entry.sessionId,
    reason: entry.reason,
    requestId: entry.requestId,
    clientRequestId: entry.clientRequestId,
    details: entry.details,
  };
}
