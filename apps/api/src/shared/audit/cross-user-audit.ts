import { isOwner, type Principal } from '@agentdesk/authz';
import { Inject, Injectable } from '@nestjs/common';
import { REPOSITORIES } from '../../core/tokens';
import { ApiMetrics } from '../../metrics/api-metrics';
import type { JsonObject, Repositories, Session } from '@agentdesk/storage';
import type { WayIn } from '../../routes/route-policy';
import type { AuditAction } from './audit-actions';
import type { AuditedChange } from './audited-change';

/** The request facts an audit record keeps. */
export interface AuditContext {
  readonly principal: Principal;
  /** How the principal authenticated (null only where no guard ran, e.g. a test's own context). */
  readonly wayIn: WayIn | null;
  /** The server's own request id (what the logs carry). */
  readonly requestId: string;
  /** The client's `X-Request-Id`, untrusted: kept apart, for correlation only. */
  readonly clientRequestId: string | null;
  readonly reason: string | undefined;
  /**
   * Tells the audit trail what this request changed, on an `@Audited` route: the trail writes the
   * request's one record, with its outcome, as the answer goes out (elsewhere it is not written).
   */
  readonly describeChange: (change: AuditedChange) => void;
}

/** What one listing request showed. */
export interface ListingShown {
  /** The filter asked for, JSON-safe (dates as ISO strings); paging parameters are left out. */
  readonly filter: JsonObject;
  /** How many records the answer returned. */
  readonly count: number;
  /** The one user the filter restricts the listing to, if any (`undefined`: several users' data). */
  readonly targetUserId?: string;
}

/** What one export sent, for its audit record. */
export interface ExportShown {
  readonly list: string;
  readonly format: string;
  /** The filter and sort asked for, JSON-safe (see `listingFilter`). */
  readonly filter: JsonObject;
  readonly rows: number;
  readonly end: 'complete' | 'client-gone' | 'failed';
  /** The one user the filter restricts the export to, if any. */
  readonly targetUserId?: string;
}

/**
 * How long one record stands for repeated reads of the same session by the same principal with the
 * same action. The console's Session page polls once a second while a turn runs; without this,
 * each poll would write a record, drowning the log in copies of one act of reading.
 */
export const CROSS_USER_READ_DEDUP_WINDOW_MS = 5 * 60 * 1000;

/**
 * Writes the audit record of a cross-user read, and only of a cross-user read: reading one's own
 * data through an admin route is not audited. Called after the data was read and before it is
 * returned, so a failed read leaves no record and a failed write returns no data.
 */
@Injectable()
export class CrossUserAudit {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  /**
   * Records a read of another user's session, de-duplicated: when the same principal already has a
   * record of the same action on the same session, with the same reason, within
   * `CROSS_USER_READ_DEDUP_WINDOW_MS`, no new record is written (that record already says this
   * principal read this session then, and why). A new stated reason is a new act: it is recorded. The check
   * asks the audit table itself (indexed on actor, session, action, time), so it holds across API
   * replicas; two reads racing past the check may both write, which errs towards more records,
   * never fewer. Listings (each filter shows different data) and mutations are never de-duplicated.
   * @returns whether a record was written
   */
  async recordRead(context: AuditContext, action: AuditAction, session: Session): Promise<boolean> {
    // Ownership without the admin shortcut: the question is whose data this is, not whether access is allowed.
    if (isOwner(session.ownerUserId, context.principal.id)) return false;
    const alreadyRecorded = await this.repositories.audit.hasRecordWithin(
      {
        actorPrincipalId: context.principal.id,
        action,
        sessionId: session.id,
        reason: context.reason ?? null,
      },
      CROSS_USER_READ_DEDUP_WINDOW_MS,
    );
    if (alreadyRecorded) return false;
    await this.append(context, action, { targetUserId: session.ownerUserId, sessionId: session.id });
    return true;
  }

  /**
   * One record per listing request, with its filter and count, unless the filter restricts it to
   * the caller's own data. @returns whether a record was written
   */
  async recordListing(context: AuditContext, action: AuditAction, shown: ListingShown): Promise<boolean> {
    if (shown.targetUserId !== undefined && isOwner(shown.targetUserId, context.principal.id)) return false;
    await this.append(context, action, {
      targetUserId: shown.targetUserId ?? null,
      details: { filter: shown.filter, count: shown.count },
    });
    return true;
  }

  /**
   * The one record of an export, written when its stream ended: `succeeded` with every row sent,
   * `failed` when the client went away or the read failed mid-stream (details say which and how
   * many rows were sent). Always written, whoever's data it holds: an export takes it all away.
   */
  async recordExport(context: AuditContext, action: AuditAction, exported: ExportShown): Promise<void> {
    const outcome = exported.end === 'complete' ? 'succeeded' : 'failed';
    await this.append(
      context,
      action,
      {
        targetUserId: exported.targetUserId ?? null,
        details: {
          list: exported.list,
          format: exported.format,
          filter: exported.filter,
          count: exported.rows,
          end: exported.end,
        },
      },
      outcome,
    );
  }

  /** The record of reading something no user owns (a lab run) that another principal made. */
  async recordOtherPrincipalsRecord(
    context: AuditContext,
    action: AuditAction,
    record: { readonly id: string; readonly ownerPrincipalId: string },
  ): Promise<boolean> {
    if (record.ownerPrincipalId === context.principal.id) return false;
    await this.append(context, action, {
      details: { recordId: record.id, ownerPrincipalId: record.ownerPrincipalId },
    });
    return true;
  }

  private async append(
    context: AuditContext,
    action: AuditAction,
    what: { targetUserId?: string | null; sessionId?: string; details?: JsonObject },
    outcome: 'succeeded' | 'failed' = 'succeeded',
  ): Promise<void> {
    await this.repositories.audit.append({
      actorPrincipalId: context.principal.id,
      actorKind: context.principal.kind,
      actorApiKeyId: context.principal.apiKeyId,
      wayIn: context.wayIn,
      action,
      targetUserId: what.targetUserId ?? null,
      sessionId: what.sessionId ?? null,
      reason: context.reason ?? null,
      requestId: context.requestId,
      clientRequestId: context.clientRequestId,
      details: what.details ?? null,
      outcome,
    });
    this.metrics.auditRecords.inc({ action, outcome });
  }
}
