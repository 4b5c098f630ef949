import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { REPOSITORIES } from '../core/tokens';
import { notFoundError } from '../errors/api-error';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidParam, ValidQuery } from '../http/validated';
import { pageJsonSchema, personJsonSchema, type PersonJson } from '@agentdesk/api-contract';
import type { Page, Person, Repositories } from '@agentdesk/storage';
import { adminPeopleQuery, adminPersonQuery, usageDaysOf } from './people-inputs';
import { toPersonJson } from './person-json';

/**
 * The people directory: every user (AgentDesk's own and portals' end users) with their email, role,
 * sessions, last activity and usage, for admins and viewers. Listing and reading are audited.
 */
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
      'List people, newest first: search the start of a name, email or external id (q), filter by portal or role, ' +
      'tokens and cost over a range of days (audited)',
  })
  @DocumentsAuditReason()
  @Returns(200, pageJsonSchema(personJsonSchema), 'One page of people')
  async list(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(adminPeopleQuery) query: z.output<typeof adminPeopleQuery>,
  ): Promise<Page<PersonJson>> {
    const range = usageDaysOf(query, new Date());
    const pageRequest = { limit: query.limit, cursor: query.cursor ?? null };
    const page: Page<Person> =
      // The older filters (a substring search, a lookup by ids) keep their meaning.
      query.search !== undefined || query.ids !== undefined
        ? await this.legacyPage(query, range, pageRequest)
        : await this.repositories.people.list(
            {
              ...(query.q === undefined ? {} : { prefix: query.q }),
              ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
              ...(query.role === undefined ? {} : { role: query.role }),
            },
            range,
            pageRequest,
          );
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.usersList, {
      filter: listingFilter(query),
      count: page.items.length,
    });
    return { items: page.items.map((person) => toPersonJson(person, range)), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Read one person: profile, role, sessions, last activity, usage over a range (audited)',
  })
  @DocumentsAuditReason()
  @Returns(200, personJsonSchema, 'The person')
  @Refuses(404)
  async read(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(adminPersonQuery) query: z.output<typeof adminPersonQuery>,
  ): Promise<PersonJson> {
    const range = usageDaysOf(query, new Date());
    const person = await this.repositories.people.get(id, range);
    if (person === undefined) throw notFoundError('user');
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.userRead, {
      filter: listingFilter(query),
      count: 1,
      targetUserId: id,
    });
    return toPersonJson(person, range);
  }

  private async legacyPage(
    query: z.output<typeof adminPeopleQuery>,
    range: { fromDay: string; toDay: string },
    pageRequest: { limit: number | undefined; cursor: string | null },
  ): Promise<Page<Person>> {
    const users = await this.repositories.users.listForAdmin(
      {
        ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
        ...(query.search === undefined ? {} : { search: query.search }),
        ...(query.ids === undefined ? {} : { ids: query.ids }),
      },
      pageRequest,
    );
    const people = await this.repositories.people.describeUsers(users.items, range);
    return { items: people, nextCursor: users.nextCursor };
  }
}
