import { SetMetadata } from '@nestjs/common';
import type { JsonObject } from '@agentdesk/storage';
import { AUDIT_POLICY, type AuditPolicy } from '../../routes/audit-policy';
import type { AuditAction } from './audit-actions';

/** What an audited change changes: a closed vocabulary, so the console can link and filter by it. */
export const auditTargetKinds = [
  'api-key',
  'console-session',
  'lab-run',
  'model-price',
  'qa-run',
  'qa-suite',
  'sandbox-build',
  'sandbox-container',
  'sandbox-image',
  'session',
  'user',
] as const;
export type AuditTargetKind = (typeof auditTargetKinds)[number];

/** Options of {@link Audited}. */
export interface AuditedOptions {
  /**
   * What the route changes. `idParam` names the path parameter holding its id, so even a refused
   * attempt names what it aimed at; a route that creates its target names it once it exists
   * (`AuditContext.describeChange`).
   */
  readonly target?: { readonly kind: AuditTargetKind; readonly idParam?: string };
  /**
   * Record requests refused for their credential too (401): a sign-in's failed attempts. `details`
   * picks what the unvalidated body tells (parse it with the route's own schema).
   */
  readonly failedCredentials?: { readonly details?: (body: unknown) => JsonObject | null };
}

/**
 * Every call of this route writes one audit record — who (actor, way in), `action`, what (target),
 * how it ended (succeeded, refused, failed), the request ids — written by the audit trail
 * (`audit-trail.ts`) as the answer goes out, refused attempts of a recognised caller included.
 * The handler adds what only it knows with `AuditContext.describeChange`.
 */
export const Audited = (action: AuditAction, options: AuditedOptions = {}): MethodDecorator =>
  SetMetadata(AUDIT_POLICY, { kind: 'audited', action, ...options } satisfies AuditPolicy);

/**
 * This route changes something but writes no audit record per call; `reason` says why, for the
 * reviewer (e.g. a portal end user's own conversation: metered, not an administrative change).
 */
export const NotAudited = (reason: string): MethodDecorator & ClassDecorator => {
  // A decision without its reason is not one: refuse it where the decorator is written.
  if (reason.trim().length < 20)
    throw new Error(`@NotAudited needs a reason a reviewer can judge: "${reason}"`);
  return SetMetadata(AUDIT_POLICY, { kind: 'not-audited', reason } satisfies AuditPolicy);
};
