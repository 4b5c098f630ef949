import { isOwner, type Principal } from '@agentdesk/authz';
import { Inject, Injectable } from '@nestjs/common';
import { REPOSITORIES } from '../core/tokens';
import { ApiMetrics } from '../metrics/api-metrics';
import type { Repositories, Session } from '@agentdesk/storage';
import type { AuditAction } from './audit-actions';

/** The request facts an audit record keeps. */
export interface AuditContext {
  readonly principal: Principal;
  readonly requestId: string;
  readonly reason: string | undefined;
}

/**
 * Writes the audit record of a cross-user read, and only of a cross-user read: reading one's own
 * session through an admin route is not audited. Called after the data was read and before it
 * is returned, so a failed read leaves no record and a failed write returns no data.
 */
@Injectable()
export class CrossUserAudit {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  /** @returns whether a record was written */
  async recordRead(context: AuditContext, action: AuditAction, session: Session): Promise<boolean> {
    // Ownership without the admin shortcut: the question is whose data this is, not whether access is allowed.
    if (isOwner(session.ownerUserId, context.principal.id)) return false;
    await this.repositories.audit.append({
      actorPrincipalId: context.principal.id,
      actorApiKeyId: context.principal.apiKeyId,
      action,
      targetUserId: session.ownerUserId,
      sessionId: session.id,
      reason: context.reason ?? null,
      requestId: context.requestId,
    });
    this.metrics.auditRecords.inc({ action });
    return true;
  }
}
