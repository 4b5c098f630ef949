import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { REPOSITORIES } from '../core/tokens';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { pageJsonSchema, userJsonSchema, type UserJson } from '@agentdesk/api-contract';
import type { Page, Repositories } from '@agentdesk/storage';
import { adminListUsersQuery } from './admin-inputs';
import { toUserJson } from './user-json';

/** Every user (AgentDesk's own and portals' end users), for admins and viewers. Listing is audited. */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@RequireScope('users:read')
@Controller('v1/admin/users')
export class AdminUsersController {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'List users, newest first (filter by portal, search external id or name, or look up to 100 ids; audited)',
  })
  @DocumentsAuditReason()
  @Returns(200, pageJsonSchema(userJsonSchema), 'One page of users')
  async list(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(adminListUsersQuery) query: z.output<typeof adminListUsersQuery>,
  ): Promise<Page<UserJson>> {
    const page = await this.repositories.users.listForAdmin(
      {
        ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
        ...(query.search === undefined ? {} : { search: query.search }),
        ...(query.ids === undefined ? {} : { ids: query.ids }),
      },
      { limit: query.limit, cursor: query.cursor ?? null },
    );
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.usersList, {
      filter: listingFilter(query),
      count: page.items.length,
    });
    return { items: page.items.map(toUserJson), nextCursor: page.nextCursor };
  }
}
