import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { MAX_USAGE_RANGE_DAYS } from '@agentdesk/api-contract';
import type { Repositories, UsageEvent } from '@agentdesk/storage';
import { REPOSITORIES } from '../core/tokens';
import { singleLineText } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { auditReasonQueryField, DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { exportFormatField } from '../shared/exports/export-inputs';
import type { ExportShape } from '../shared/exports/export-stream';
import { sendExport } from '../shared/exports/send-export';
import { daysBetween } from './usage-inputs';
import { resolveUsageRange } from './usage-report';

const daySchema = z.iso.date({ error: 'must be a date as YYYY-MM-DD (UTC)' });
const exactFilter = singleLineText(200).min(1, { error: 'must not be empty' });

/** `GET /v1/admin/exports/usage`: the usage page's range and exact filters on the calls, and the format. */
export const exportUsageQuery = z
  .object({
    from: daySchema.optional(),
    to: daySchema.optional(),
    model: exactFilter.optional(),
    provider: exactFilter.optional(),
    portalId: exactFilter.optional(),
    userId: exactFilter.optional().describe('The end user the calls were made for (users.id)'),
    ...exportFormatField,
    ...auditReasonQueryField,
  })
  .strict()
  .superRefine((query, context) => {
    if (query.from === undefined || query.to === undefined) return;
    const days = daysBetween(query.from, query.to);
    if (days < 1) {
      context.addIssue({ code: 'custom', path: ['to'], message: `must not be before from (${query.from})` });
    } else if (days > MAX_USAGE_RANGE_DAYS) {
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: `the range covers ${days} days; at most ${MAX_USAGE_RANGE_DAYS} are allowed`,
      });
    }
  });

/** A metered model call as an export row; cost in micro-dollars, empty when no price applied. */
const usageExportShape: ExportShape<UsageEvent> = {
  name: 'usage',
  columns: [
    'id',
    'occurredAt',
    'source',
    'model',
    'provider',
    'apiKeyId',
    'portalId',
    'endUserId',
    'inputTokens',
    'outputTokens',
    'thinkingTokens',
    'cachedTokens',
    'latencyMs',
    'status',
    'costMicros',
  ],
  toRecord: (event) => ({
    id: event.id,
    occurredAt: new Date(event.occurredAt).toISOString(),
    source: event.source,
    model: event.model,
    provider: event.provider,
    apiKeyId: event.apiKeyId,
    portalId: event.portalId,
    endUserId: event.endUserId,
    inputTokens: event.inputTokens,
    outputTokens: event.outputTokens,
    thinkingTokens: event.thinkingTokens,
    cachedTokens: event.cachedTokens,
    latencyMs: event.latencyMs,
    status: event.status,
    costMicros: event.costMicros,
  }),
};

/** Every metered model call of a range, one row each, as a streamed download (admins and viewers; audited). */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@RequireScope('usage:read')
@Controller('v1/admin/exports')
export class UsageExportController {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Get('usage')
  @ApiOperation({
    summary:
      'Export every metered model call of a UTC day range (default: the last 30 days), oldest first, filtered by ' +
      'model, provider, portal or end user, as CSV or JSON Lines, streamed (audited)',
  })
  @DocumentsAuditReason()
  @ApiProduces('text/csv', 'application/jsonl')
  async export(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(exportUsageQuery) query: z.output<typeof exportUsageQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const range = resolveUsageRange(query, this.repositories.usage.currentDay());
    const chunks = this.repositories.usage.exportEvents({
      ...range,
      ...(query.model === undefined ? {} : { model: query.model }),
      ...(query.provider === undefined ? {} : { provider: query.provider }),
      ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
      ...(query.userId === undefined ? {} : { endUserId: query.userId }),
    });
    await sendExport(reply, withQueryReason(context, query.reason), this.audit, {
      list: 'usage',
      format: query.format,
      filter: listingFilter({ ...query, format: undefined }),
      shape: usageExportShape,
      chunks,
      ...(query.userId === undefined ? {} : { targetUserId: query.userId }),
    });
  }
}
