import type { JsonObject } from '@agentdesk/storage';
import type { WayIn } from '../../routes/route-policy';
import type { AuditTargetKind } from './audited';

/** How the actor of a record came in: a way in of the guard, or a single sign-on (`oidc`, public routes). */
export type AuditWayIn = WayIn | 'oidc';

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
  /** The way in, where the guard did not see it (a sign-in finished on a public route). */
  readonly wayIn?: AuditWayIn;
  /** Facts worth keeping (a key's role, a run's models); never a secret. */
  readonly details?: JsonObject;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set through `AuditContext.describeChange` by the handler of an `@Audited` route. */
    auditedChange?: AuditedChange;
  }
}
