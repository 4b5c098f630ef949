import type { JsonObject } from '@agentdesk/storage';
import type { AuditTargetKind } from './audited';

/**
 * What an audited request changed, as only its handler knows it (the id of a key it created, the
 * user whose session it ended). The audit trail writes it into the request's one record, with the
 * outcome, when the answer goes out.
 */
export interface AuditedChange {
  readonly target?: { readonly kind: AuditTargetKind; readonly id: string | null };
  /** The user the change concerns (a key's holder, a session's owner). */
  readonly targetUserId?: string | null;
  readonly sessionId?: string | null;
  /** Facts worth keeping (a key's role, a run's models); never a secret. */
  readonly details?: JsonObject;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set through `AuditContext.describeChange` by the handler of an `@Audited` route. */
    auditedChange?: AuditedChange;
  }
}
