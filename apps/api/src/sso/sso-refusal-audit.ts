import type { Repositories } from '@agentdesk/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { auditActions } from '../shared/audit/audit-actions';
import { UNAUTHENTICATED_ACTOR } from '../shared/audit/audit-record';
import { FailedAttemptBudget } from '../shared/audit/failed-attempt-budget';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER, REPOSITORIES } from '../core/tokens';
import { clientRequestIdOf } from '../http/request-id';
import { ApiMetrics } from '../metrics/api-metrics';
import type { SsoProblem } from './sso-problems';

/**
 * A single sign-on that ended without a session is a refused console sign-in, recorded like a
 * refused key sign-in: action `console.sign-in`, outcome `refused`, way in `oidc`, the problem
 * code. The browser's stops are public redirects (no guard, no `@Audited` answer to read), so the
 * flow writes these itself. The person is named when the provider had vouched for them (no mapped
 * role); otherwise nobody is, and a per-address budget bounds the records as for failed keys.
 */
@Injectable()
export class SsoRefusalAudit {
  private readonly budget: FailedAttemptBudget;

  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {
    this.budget = new FailedAttemptBudget(config.rateLimit.authFailuresMax, config.rateLimit.windowMs);
  }

  /** Never throws: a sign-in page must not fail because its record could not be written. */
  async record(
    request: FastifyRequest,
    refusal: {
      readonly problem: SsoProblem;
      readonly step: 'start' | 'callback' | 'exchange';
      readonly userId?: string;
    },
  ): Promise<void> {
    const action = auditActions.consoleSignIn;
    if (refusal.userId === undefined && !this.budget.take(request.ip)) {
      this.metrics.auditRecordsSuppressed.inc({ action });
      return;
    }
    try {
      await this.repositories.audit.append({
        actorPrincipalId: refusal.userId ?? UNAUTHENTICATED_ACTOR,
        actorKind: refusal.userId === undefined ? 'unauthenticated' : 'user',
        actorApiKeyId: null,
        wayIn: 'oidc',
        action,
        outcome: 'refused',
        target: { kind: 'console-session', id: null },
        targetUserId: refusal.userId ?? null,
        requestId: request.id,
        clientRequestId: clientRequestIdOf(request.raw),
        details: { problem: refusal.problem, step: refusal.step },
      });
      this.metrics.auditRecords.inc({ action, outcome: 'refused' });
    } catch (error) {
      this.metrics.auditWriteFailures.inc({ action });
      this.logger.error(
        { err: error, requestId: request.id, action },
        'audit record of a refused single sign-on could not be written',
      );
    }
  }
}
