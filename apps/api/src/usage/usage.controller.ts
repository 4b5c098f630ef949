import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { usageReportJsonSchema, type UsageReportJson } from '@agentdesk/api-contract';
import type { Repositories } from '@agentdesk/storage';
import { providerOfModel } from '../model-access/model-router';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../audit/audit-actions';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../audit/audit-context';
import { DocumentsAuditReason } from '../audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../audit/cross-user-audit';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, REPOSITORIES } from '../core/tokens';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { usageReportQuery, type UsageReportQuery } from './usage-inputs';
import { buildUsageReport, groupColumnOf, resolveUsageRange } from './usage-report';

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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Tokens per UTC day and model, provider, portal or user, from the usage stored on assistant messages (audited). ' +
      'from/to are inclusive YYYY-MM-DD dates, at most 366 days apart; without them, the last 30 days.',
  })
  @DocumentsAuditReason()
  @Returns(200, usageReportJsonSchema, 'Daily buckets and per-key totals')
  async report(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(usageReportQuery) query: UsageReportQuery,
  ): Promise<UsageReportJson> {
    const range = resolveUsageRange(query, this.repositories.usage.currentDay());
    const rows = await this.repositories.usage.dailyUsage(range, groupColumnOf(query.groupBy));
    const routes = this.config.models.routes;
    const report = buildUsageReport(query.groupBy, range, rows, (key) =>
      query.groupBy === 'provider' && key !== null ? providerOfModel(key, routes) : key,
    );
    // Usage names users and portals across everyone: one listing record with the query and the count.
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.usageRead, {
      filter: listingFilter(query),
      count: report.items.length,
    });
    return report;
  }
}
