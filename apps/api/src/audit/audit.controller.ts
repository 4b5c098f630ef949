import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { RequireScope } from '../routes/route-policy';
import { REPOSITORIES } from '../core/tokens';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { defaultAuditSort, pageJsonSchema } from '@agentdesk/api-contract';
import { listSortOf } from '../http/list-sort';
import type { Page, Repositories } from '@agentdesk/storage';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { listAuditQuery } from './audit-inputs';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { auditEntryJsonSchema, toAuditEntryJson, userIdsOf, type AuditEntryJson } from './audit-json';

/**
 * The audit log (admin only). It is append-only: there is no route to change it. Reading it is
 * audited too: its records name users and why their data was read.
 */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@RequireScope('audit:read')
@Controller('v1/admin/audit')
export class AuditController {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Read the audit log, newest first (audited)' })
  @DocumentsAuditReason()
  @Returns(200, pageJsonSchema(auditEntryJsonSchema), 'One page of audit records')
  async list(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(listAuditQuery) query: z.output<typeof listAuditQuery>,
  ): Promise<Page<AuditEntryJson>> {
    const page = await this.repositories.audit.list(
      {
        ...(query.actorId === undefined ? {} : { actorPrincipalId: query.actorId }),
        ...(query.targetUserId === undefined ? {} : { targetUserId: query.targetUserId }),
        ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }),
        ...(query.action === undefined ? {} : { action: query.action }),
        ...(query.outcome === undefined ? {} : { outcome: query.outcome }),
        ...(query.from === undefined ? {} : { from: query.from }),
        ...(query.before === undefined ? {} : { before: query.before }),
      },
      { limit: query.limit, cursor: query.cursor ?? null },
      listSortOf(query, defaultAuditSort),
    );
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.auditList, {
      filter: listingFilter(query),
      count: page.items.length,
    });
    const names = await this.repositories.people.namesOf(userIdsOf(page.items));
    return { items: page.items.map((entry) => toAuditEntryJson(entry, names)), nextCursor: page.nextCursor };
  }
}
