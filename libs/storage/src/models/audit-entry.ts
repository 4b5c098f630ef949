import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../database-schema';
import { fromNullableJsonText, type JsonObject } from '../json';

/** One audit record: who did what to whose data, why, in which request. */
export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  readonly actorPrincipalId: string;
  readonly actorApiKeyId: string | null;
  /** What happened, e.g. `admin.session.read`; named by the API. */
  readonly action: string;
  readonly targetUserId: string | null;
  readonly sessionId: string | null;
  readonly reason: string | null;
  /** The server's own id of the audited request (what its logs carry). */
  readonly requestId: string | null;
  /** The client's `X-Request-Id`: untrusted, for correlation with the client's own logs only. */
  readonly clientRequestId: string | null;
  /** What a listing showed, e.g. `{ filter, count }`; null for single reads. */
  readonly details: JsonObject | null;
}

/** Maps an `audit_log` row. */
export function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    at: new Date(row.at),
    actorPrincipalId: row.actor_principal_id,
    actorApiKeyId: row.actor_api_key_id,
    action: row.action,
    targetUserId: row.target_user_id,
    sessionId: row.session_id,
    reason: row.reason,
    requestId: row.request_id,
    clientRequestId: row.client_request_id,
    details: fromNullableJsonText<JsonObject>(row.details),
  };
}
