import type { Repositories } from '@agentdesk/storage';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { clientRequestIdOf } from '../../http/request-id';
import type { ApiMetrics } from '../../metrics/api-metrics';
import { routesMissingAuditDecision } from '../../routes/audit-policy';
import type { RouteEntry } from '../../routes/route-inventory';
import { DEFAULT_WAYS_IN } from '../../routes/route-policy';
import { auditRecordOf, type AuditedRoute } from './audit-record';
import { readAuditReasonHeader } from './audit-reason';
import type { FailedAttemptBudget } from './failed-attempt-budget';

/**
 * Writes the one audit record of every call of an `@Audited` route, whatever its answer: the
 * success, and an attempt the API refused (403 scope, 400, 404, a failed sign-in) or failed. One
 * writer at the edge, reading the answer's status, because the refusals happen where no handler
 * runs (the guard). It writes in Fastify's `onSend`, before the answer leaves, so whoever reads the
 * log after an answer finds its record.
 *
 * A record that cannot be written is logged and counted (`agentdesk_audit_write_failures_total`),
 * and the answer still goes out: the change was made, and hiding that from its caller (who would
 * retry a create, or think a revocation failed) would not undo it.
 */
export class AuditTrail {
  /** `METHOD /path/:param` of each audited route (Fastify's route template). */
  private readonly audited = new Map<string, AuditedRoute>();

  constructor(
    private readonly repositories: Repositories,
    private readonly metrics: ApiMetrics,
    private readonly logger: Logger,
    /** Bounds the records of refused credentials (failed sign-ins) per client address. */
    private readonly failedAttempts: FailedAttemptBudget,
  ) {}

  /**
   * Learns the audited routes from the app's route table once Nest registered them; logs each
   * route that changes something without an audit decision (the coverage test fails on them too).
   */
  useRoutes(routes: readonly RouteEntry[]): void {
    for (const route of routes) {
      if (route.audit?.kind !== 'audited') continue;
      const ways = route.policy?.kind === 'scope' ? route.policy.ways : DEFAULT_WAYS_IN;
      this.audited.set(`${route.method} ${route.path}`, { audit: route.audit, ways });
    }
    for (const route of routesMissingAuditDecision(routes)) {
      this.logger.error(
        { method: route.method, path: route.path },
        'route changes something without an audit decision (@Audited or @NotAudited)',
      );
    }
  }

  /** The audited route a request matched, if any. */
  routeOf(request: FastifyRequest): AuditedRoute | undefined {
    const template = request.routeOptions.url;
    return template === undefined ? undefined : this.audited.get(`${request.method} ${template}`);
  }

  /** Writes the request's record, if one is due; never throws (the answer goes out regardless). */
  async record(
    request: FastifyRequest,
    route: AuditedRoute,
    statusCode: number,
    payload: unknown,
  ): Promise<void> {
    let action = route.audit.action;
    try {
      const entry = auditRecordOf({
        route,
        statusCode,
        principal: request.principal,
        wayIn: request.wayIn,
        rawHeaders: request.raw.rawHeaders,
        params: request.params,
        body: request.body,
        change: request.auditedChange,
        requestId: request.id,
        clientRequestId: clientRequestIdOf(request.raw),
        reason: reasonOf(request),
        errorCode: statusCode >= 400 ? errorCodeOf(payload) : null,
      });
      if (entry === undefined) return;
      action = entry.action;
      if (entry.actorKind === 'unauthenticated' && !this.failedAttempts.take(request.ip)) {
        this.metrics.auditRecordsSuppressed.inc({ action });
        return;
      }
      await this.repositories.audit.append(entry);
      this.metrics.auditRecords.inc({ action, outcome: entry.outcome });
    } catch (error) {
      this.metrics.auditWriteFailures.inc({ action });
      this.logger.error(
        { err: error, requestId: request.id, action, statusCode },
        'audit record of an answered request could not be written',
      );
    }
  }
}

/** Adds the trail's `onSend` hook; a request of a route that is not audited costs one map lookup. */
export function registerAuditTrail(fastify: FastifyInstance, trail: AuditTrail): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const route = trail.routeOf(request);
    if (route === undefined) {
      done(null, payload);
      return;
    }
    void trail.record(request, route, reply.statusCode, payload).then(() => done(null, payload));
  });
}

/** The stated reason; an invalid header (the request's 400) is recorded as none. */
function reasonOf(request: FastifyRequest): string | null {
  try {
    return readAuditReasonHeader(request) ?? null;
  } catch {
    return null;
  }
}

/** The `error.code` of an error body (ours, or OpenAI's shape), read from the serialized answer. */
function errorCodeOf(payload: unknown): string | null {
  if (typeof payload !== 'string' || payload.length > 64_000) return null;
  try {
    const body = JSON.parse(payload) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : null;
  } catch {
    return null;
  }
}
