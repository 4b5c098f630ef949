import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The API's Prometheus metrics, in a registry of its own (not prom-client's global one) so
 * several app instances in one process — tests — do not collide.
 */
@Injectable()
export class ApiMetrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'agentdesk_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly authenticationFailures = new Counter({
    name: 'agentdesk_authentication_failures_total',
    help: 'Requests refused with 401, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'agentdesk_rate_limited_total',
    help: 'Requests refused with 429, by limit',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly auditRecords = new Counter({
    name: 'agentdesk_audit_records_total',
    help: 'Audit records written, by action and outcome',
    labelNames: ['action', 'outcome'] as const,
    registers: [this.registry],
  });

  // Failed sign-ins past a client address's budget per window (`FailedAttemptBudget`): counted, not recorded.
  readonly auditRecordsSuppressed = new Counter({
    name: 'agentdesk_audit_records_suppressed_total',
    help: 'Refused sign-ins not recorded in the audit log because their address spent its budget, by action',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  // The change was made and answered; only its record is missing: an operator must look.
  readonly auditWriteFailures = new Counter({
    name: 'agentdesk_audit_write_failures_total',
    help: 'Audit records of answered changes that could not be written, by action',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  readonly errors = new Counter({
    name: 'agentdesk_http_errors_total',
    help: 'Error answers by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
