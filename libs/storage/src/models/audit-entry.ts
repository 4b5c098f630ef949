import type { Selectable } from 'kysely';
import type { AuditLogTable } from '../database-schema';
import { fromNullableJsonText, type JsonObject } from '../json';

/**
 * What an audit record's actor is: a `user` (admins and viewers included), a `portal` (the id is the
 * portal's own name), the dev-mode `anonymous` user, `unauthenticated` (a refused sign-in: nobody was
 * recognised) or the `host` (a command run on the server, e.g. `npm run admin-key`).
 */
export const auditActorKinds = ['user', 'portal', 'anonymous', 'unauthenticated', 'host'] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

/**
 * How an audited attempt ended: it `succeeded`; it was `refused` (a 4xx: not allowed, invalid, not
 * found, a failed sign-in); or it `failed` (the server failed; the change may or may not have happened).
 */
export const auditOutcomes = ['succeeded', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof auditOutcomes)[number];

/** What an audited change changed: its kind (`api-key`, `lab-run`, …) and, when known, its id. */
export interface AuditTarget {
  readonly kind: string;
  readonly id: string | null;
}

/** One audit record: who did what to whose data, how they came in, why, how it ended, in which request. */
export interface AuditEntry {
  readonly id: string;
  readonly at: Date;
  readonly actorPrincipalId: string;
  readonly actorKind: AuditActorKind;
  readonly actorApiKeyId: string | null;
  /** How the actor authenticated (`api-key`, `console-session`, `host-command`); null on older records. */
  readonly wayIn: string | null;
  /** What happened, e.g. `admin.session.read`; named by the API. */
  readonly action: string;
  readonly outcome: AuditOutcome;
  /** What a change changed; null for reads and listings. */
  readonly target: AuditTarget | null;
  readonly targetUserId: string | null;
  readonly sessionId: string | null;
  readonly reason: string | null;
  /** The server's own id of the audited request (what its logs carry). */
  readonly requestId: string | null;
  /** The client's `X-Request-Id`: untrusted, for correlation with the client's own logs only. */
  readonly clientRequestId: string | null;
  /** What a listing showed (`{ filter, count }`), what a change changed, why an attempt was refused. */
  readonly details: JsonObject | null;
}

/** Maps an `audit_log` row. */
export function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: row.id,
    at: new Date(row.at),
    actorPrincipalId: row.actor_principal_id,
    actorKind: row.actor_kind,
    actorApiKeyId: row.actor_api_key_id,
    wayIn: row.way_in,
    action: row.action,
    outcome: row.outcome,
    target: row.target_kind === null ? null : { kind: row.target_kind, id: row.target_id },
    targetUserId: row.target_user_id,
    sessionId: row.session_id,
    reason: row.reason,
    requestId: row.request_id,
    clientRequestId: row.client_request_id,
    details: fromNullableJsonText<JsonObject>(row.details),
  };
}
