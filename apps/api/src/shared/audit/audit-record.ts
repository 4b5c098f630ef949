import type { Principal } from '@agentdesk/authz';
import type { AuditOutcome, JsonObject, NewAuditEntry } from '@agentdesk/storage';
import { parseApiKey } from '../../core/api-key-format';
import type { AuditPolicy } from '../../routes/audit-policy';
import type { WayIn } from '../../routes/route-policy';
import { readCredential } from '../../auth/credentials';
import { presentedWayOf } from '../../auth/ways-in';
import type { AuditedChange } from './audited-change';

/** The actor id of a record nobody could be named for: a refused sign-in (`actorKind: unauthenticated`). */
export const UNAUTHENTICATED_ACTOR = 'unauthenticated';

/** An audited route as the trail knows it: its audit policy and the ways in it takes. */
export interface AuditedRoute {
  readonly audit: Extract<AuditPolicy, { kind: 'audited' }>;
  readonly ways: readonly WayIn[];
}

/** What the trail knows about one answered request of an audited route. */
export interface AnsweredRequest {
  readonly route: AuditedRoute;
  readonly statusCode: number;
  /** Set by the guard once the caller was recognised (also when it then refused the scope). */
  readonly principal: Principal | undefined;
  readonly wayIn: WayIn | undefined;
  readonly rawHeaders: readonly string[];
  readonly params: unknown;
  readonly body: unknown;
  readonly change: AuditedChange | undefined;
  readonly requestId: string;
  readonly clientRequestId: string | null;
  readonly reason: string | null;
  /** The error body's `code` of a refused or failed answer. */
  readonly errorCode: string | null;
}

/** 2xx/3xx: it happened; 4xx: refused; 5xx: the server failed (the change may or may not have happened). */
export function outcomeOf(statusCode: number): AuditOutcome {
  if (statusCode < 400) return 'succeeded';
  return statusCode < 500 ? 'refused' : 'failed';
}

/**
 * The one record of an answered request on an audited route, or `undefined` when none is due:
 * - a recognised caller (the guard set the principal): always — what they did or tried, and how it ended;
 * - a 429: never — a throttle judged nothing, and recording each would undo what it protects;
 * - nobody recognised: only a failed credential of a way the route takes, on a route that records
 *   them (sign-in); each is a guess the failure limit counts, so these records are bounded too.
 *   Other unauthenticated calls name no one and are not attempts at the change.
 */
export function auditRecordOf(answered: AnsweredRequest): NewAuditEntry | undefined {
  const { route, statusCode } = answered;
  if (statusCode === 429) return undefined;
  const outcome = outcomeOf(statusCode);
  const refusal: JsonObject = outcome === 'succeeded' ? {} : { status: statusCode, code: answered.errorCode };
  const common = {
    action: route.audit.action,
    outcome,
    reason: answered.reason,
    requestId: answered.requestId,
    clientRequestId: answered.clientRequestId,
  };
  if (answered.principal === undefined) {
    const attempt = failedCredentialOf(answered);
    if (attempt === undefined) return undefined;
    return {
      ...common,
      actorPrincipalId: UNAUTHENTICATED_ACTOR,
      actorKind: 'unauthenticated',
      actorApiKeyId: null,
      wayIn: attempt.way,
      target: targetOf(answered),
      details: { ...refusal, ...attempt.details },
    };
  }
  const change = answered.change;
  const details = outcome === 'succeeded' ? (change?.details ?? null) : { ...change?.details, ...refusal };
  return {
    ...common,
    actorPrincipalId: answered.principal.id,
    actorKind: answered.principal.kind,
    actorApiKeyId: answered.principal.apiKeyId,
    wayIn: change?.wayIn ?? answered.wayIn ?? null,
    target: targetOf(answered),
    targetUserId: change?.targetUserId ?? null,
    sessionId: change?.sessionId ?? null,
    details,
  };
}

/** The target the handler named, else the one the path names (a refused attempt's aim), else its kind alone. */
function targetOf(answered: AnsweredRequest): { kind: string; id: string | null } | null {
  if (answered.change?.target !== undefined) return answered.change.target;
  const spec = answered.route.audit.target;
  if (spec === undefined) return null;
  const value = spec.idParam === undefined ? undefined : paramOf(answered.params, spec.idParam);
  // Fastify caps a path parameter at 100 characters; the cap here keeps that promise in this file.
  return { kind: spec.kind, id: value === undefined ? null : value.slice(0, 200) };
}

function paramOf(params: unknown, name: string): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const value = (params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** A refused credential worth a record: a 401 on a route that records them, of a way it takes. */
function failedCredentialOf(
  answered: AnsweredRequest,
): { readonly way: WayIn; readonly details: JsonObject } | undefined {
  const recording = answered.route.audit.failedCredentials;
  if (recording === undefined || answered.statusCode !== 401) return undefined;
  const presented = presentedWayOf(answered.rawHeaders);
  if (presented === 'none' || presented === 'ambiguous' || !answered.route.ways.includes(presented))
    return undefined;
  const details: Record<string, JsonObject[string]> = { ...recording.details?.(answered.body) };
  if (presented === 'api-key') {
    // The key's id is not secret (listings show it): it tells whose key was tried, never that it was theirs.
    const credential = readCredential(answered.rawHeaders);
    const keyId = credential.kind === 'key' ? parseApiKey(credential.key)?.keyId : undefined;
    details['presentedKeyId'] = keyId ?? null;
  }
  return { way: presented, details };
}
