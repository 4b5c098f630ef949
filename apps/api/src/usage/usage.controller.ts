import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { usageReportJsonSchema, type UsageReportJson } from '@agentdesk/api-contract';
import type { Repositories } from '@agentdesk/storage';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { REPOSITORIES } from '../core/tokens';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { usageReportQuery, type UsageReportQuery } from './usage-inputs';
import { buildUsageReport, resolveUsageRange } from './usage-report';

/** Token usage per UTC day by model, provider, portal or user, for admins and viewers. Audited. */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@RequireScope('usage:read')
@Controller('v1/admin/usage')
export class UsageController {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Tokens and model calls per UTC day and model, provider, portal or end user, from every metered model call ' +
      '(/v1/chat/completions, agent turns, lab targets; failed and cancelled calls count as calls with the tokens ' +
      'reported, usually none). Calls are written in batches, so the last second or so may not show yet (audited). ' +
      'from/to are inclusive YYYY-MM-DD dates, at most 366 days apart; without them, the last 30 days.',
  })
  @DocumentsAuditReason()
  @Returns(200, usageReportJsonSchema, 'Daily buckets and per-key totals')
  async report(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(usageReportQuery) query: UsageReportQuery,
  ): Promise<UsageReportJson> {
    const range = resolveUsageRange(query, this.repositories.usage.currentDay());
    const rows = await this.repositories.usage.dailyUsage(range, query.groupBy);
    const report = buildUsageReport(query.groupBy, range, rows);
    // Usage names users and portals across everyone: one listing record with the query and the count.
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.usageRead, {
      filter: listingFilter(query),
      count: report.items.length,
    });
    return report;
  }
}
