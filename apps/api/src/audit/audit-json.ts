import type { z } from 'zod';
import { auditEntryJsonSchema } from '@agentdesk/api-contract';
import type { AuditEntry, JsonObject } from '@agentdesk/storage';

export { auditEntryJsonSchema };

export type AuditEntryJson = Omit<z.infer<typeof auditEntryJsonSchema>, 'details'> & {
  details: JsonObject | null;
};

/**
 * An audit record as JSON; with `names` (user id → display name, read for the page in one batch:
 * `userIdsOf`), its actor (when a user) and target user are named too.
 */
export function toAuditEntryJson(entry: AuditEntry, names?: ReadonlyMap<string, string>): AuditEntryJson {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    actorPrincipalId: entry.actorPrincipalId,
    actorKind: entry.actorKind,
    ...(names === undefined
      ? {}
      : {
          actorName: entry.actorKind === 'user' ? (names.get(entry.actorPrincipalId) ?? null) : null,
          targetUserName: entry.targetUserId === null ? null : (names.get(entry.targetUserId) ?? null),
        }),
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

/** The user ids an audit page names: its user actors and target users (one `people.namesOf` read). */
export function userIdsOf(entries: readonly AuditEntry[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.actorKind === 'user' ? [entry.actorPrincipalId] : []),
    ...(entry.targetUserId === null ? [] : [entry.targetUserId]),
  ]);
}
