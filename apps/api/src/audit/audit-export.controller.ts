import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { defaultAuditSort } from '@agentdesk/api-contract';
import type { AuditEntry, Repositories } from '@agentdesk/storage';
import { REPOSITORIES } from '../core/tokens';
import { listSortOf } from '../http/list-sort';
import { ApiKeyAuthenticated, Refuses } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { exportFormatField, withoutPaging } from '../shared/exports/export-inputs';
import type { ExportShape } from '../shared/exports/export-stream';
import { sendExport } from '../shared/exports/send-export';
import { listAuditQuery } from './audit-inputs';

/** `GET /v1/admin/exports/audit`: the audit list's filters and sort, and the format. */
export const exportAuditQuery = z
  .object({ ...withoutPaging(listAuditQuery.shape), ...exportFormatField })
  .strict();

/** An audit record as an export row; `details` as JSON text. */
const auditExportShape: ExportShape<AuditEntry> = {
  name: 'audit',
  columns: [
    'id',
    'at',
    'actorPrincipalId',
    'actorKind',
    'actorApiKeyId',
    'wayIn',
    'action',
    'outcome',
    'targetKind',
    'targetId',
    'targetUserId',
    'sessionId',
    'reason',
    'requestId',
    'clientRequestId',
    'details',
  ],
  toRecord: (entry) => ({
    id: entry.id,
    at: entry.at.toISOString(),
    actorPrincipalId: entry.actorPrincipalId,
    actorKind: entry.actorKind,
    actorApiKeyId: entry.actorApiKeyId,
    wayIn: entry.wayIn,
    action: entry.action,
    outcome: entry.outcome,
    targetKind: entry.target?.kind ?? null,
    targetId: entry.target?.id ?? null,
    targetUserId: entry.targetUserId,
    sessionId: entry.sessionId,
    reason: entry.reason,
    requestId: entry.requestId,
    clientRequestId: entry.clientRequestId,
    details: entry.details === null ? null : JSON.stringify(entry.details),
  }),
};

/** The audit log as a download (admin only), streamed; the export is itself audited. */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@RequireScope('audit:read')
@Controller('v1/admin/exports')
export class AuditExportController {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Get('audit')
  @ApiOperation({
    summary:
      'Export every audit record the audit list shows with these filters and sort, as CSV or JSON Lines (audited)',
  })
  @DocumentsAuditReason()
  @ApiProduces('text/csv', 'application/jsonl')
  async export(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(exportAuditQuery) query: z.output<typeof exportAuditQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const chunks = this.repositories.audit.export(
      {
        ...(query.actorId === undefined ? {} : { actorPrincipalId: query.actorId }),
        ...(query.targetUserId === undefined ? {} : { targetUserId: query.targetUserId }),
        ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }),
        ...(query.action === undefined ? {} : { action: query.action }),
        ...(query.outcome === undefined ? {} : { outcome: query.outcome }),
        ...(query.from === undefined ? {} : { from: query.from }),
        ...(query.before === undefined ? {} : { before: query.before }),
      },
      listSortOf(query, defaultAuditSort),
    );
    await sendExport(reply, withQueryReason(context, query.reason), this.audit, {
      list: 'audit',
      format: query.format,
      filter: listingFilter({ ...query, format: undefined }),
      shape: auditExportShape,
      chunks,
    });
  }
}
