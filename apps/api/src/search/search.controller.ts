import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { messageSearchPageJsonSchema, type MessageSearchPageJson } from '@agentdesk/api-contract';
import { ignoredSearchTermsOf, searchTermsOf, type Repositories } from '@agentdesk/storage';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { REPOSITORIES } from '../core/tokens';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { searchMessagesQuery } from './search-inputs';
import { toMessageSearchHitJson } from './search-hit-json';

/** Full-text search over every user's messages, for admins and viewers. Every search is audited. */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@RequireScope('messages:read-any')
@Controller('v1/admin/search')
export class SearchController {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Get('messages')
  @ApiOperation({
    summary:
      'Find messages of every user containing all the words of q (the last, of 3+ letters, as a prefix), filtered by owner, role, model and dates, newest first (audited)',
    description:
      'Each hit has a snippet with the places the words were found (`highlights`). A query of more than 16 distinct words searches the first 16 and names the rest in `ignoredWords`.',
  })
  @DocumentsAuditReason()
  @Returns(200, messageSearchPageJsonSchema, 'One page of messages found, and the words searched')
  async searchMessages(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(searchMessagesQuery) query: z.output<typeof searchMessagesQuery>,
  ): Promise<MessageSearchPageJson> {
    const page = await this.repositories.transcript.searchMessages(
      query.q,
      { limit: query.limit, cursor: query.cursor ?? null },
      {
        ...(query.userId === undefined ? {} : { ownerUserId: query.userId }),
        ...(query.role === undefined ? {} : { role: query.role }),
        ...(query.model === undefined ? {} : { model: query.model }),
        ...(query.createdFrom === undefined ? {} : { createdFrom: query.createdFrom }),
        ...(query.createdBefore === undefined ? {} : { createdBefore: query.createdBefore }),
      },
    );
    // A search reads message text across users: one listing record with the words and the count.
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.messagesSearch, {
      filter: listingFilter(query),
      count: page.items.length,
      ...(query.userId === undefined ? {} : { targetUserId: query.userId }),
    });
    // The sessions' owners, named in one read for the page.
    const names = await this.repositories.people.namesOf(page.items.map((hit) => hit.ownerUserId));
    return {
      items: page.items.map((hit) => ({
        ...toMessageSearchHitJson(hit, query.q),
        ownerName: names.get(hit.ownerUserId) ?? null,
      })),
      nextCursor: page.nextCursor,
      words: searchTermsOf(query.q),
      ignoredWords: ignoredSearchTermsOf(query.q),
    };
  }
}
