import type { JsonObject } from '@agentdesk/storage';
import type { RouteEntry } from './route-inventory';

/** The HTTP methods that change something: every route of one carries an audit decision. */
export const mutatingMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What an audited route changes: a kind (`api-key`, …) and the path parameter naming it, if one does. */
export interface AuditedTargetSpec {
  readonly kind: string;
  /** The path parameter holding the target's id (`id`), so a refused attempt names what it aimed at. */
  readonly idParam?: string;
}

/**
 * Whether a route also records requests refused for their credential (401): a sign-in's failed
 * attempts. Only a credential of a way the route takes counts — each such record is a guess the
 * failure limit counts, so past the limit the 429s write nothing and the log cannot be flooded.
 */
export interface FailedCredentialRecording {
  /** What the (unvalidated) body tells about the attempt, parsed by the route's own schema. */
  readonly details?: (body: unknown) => JsonObject | null;
}

/**
 * Whether a route's calls are audited, as data (like `RoutePolicy`): `audited` with the action its
 * record names — each call then writes one record with its outcome, by the audit trail, whatever
 * the answer — or `not-audited` with the reason why not, kept in the code for the reviewer.
 */
export type AuditPolicy =
  | {
      readonly kind: 'audited';
      readonly action: string;
      readonly target?: AuditedTargetSpec;
      readonly failedCredentials?: FailedCredentialRecording;
    }
  | { readonly kind: 'not-audited'; readonly reason: string };

/** Metadata key of the audit policy (on the handler, or on the controller class for all its routes). */
export const AUDIT_POLICY = 'agentdesk:audit-policy';

/**
 * The routes that change something and say nothing about their audit: each must become
 * `@Audited(action)` or `@NotAudited(reason)`. (A GET may carry `@Audited` when it changes
 * something — a single sign-on callback opens a session — and is then listed with the decisions.)
 */
export function routesMissingAuditDecision(routes: readonly RouteEntry[]): RouteEntry[] {
  return routes.filter((route) => mutatingMethods.has(route.method) && route.audit === undefined);
}
