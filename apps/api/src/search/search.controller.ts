import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import {
  messageSearchHitJsonSchema,
  pageJsonSchema,
  type MessageSearchHitJson,
  type PageJson,
} from '@agentdesk/api-contract';
import type { Repositories } from '@agentdesk/storage';
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
    summary: 'Find messages of every user containing all the words of q, newest first (audited)',
  })
  @DocumentsAuditReason()
  @Returns(200, pageJsonSchema(messageSearchHitJsonSchema), 'One page of messages found')
  async searchMessages(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(searchMessagesQuery) query: z.output<typeof searchMessagesQuery>,
  ): Promise<PageJson<MessageSearchHitJson>> {
    const page = await this.repositories.transcript.searchMessages(query.q, {
      limit: query.limit,
      cursor: query.cursor ?? null,
    });
    // A search reads message text across users: one listing record with the words and the count.
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.messagesSearch, {
      filter: listingFilter(query),
      count: page.items.length,
    });
    return {
      items: page.items.map((hit) => toMessageSearchHitJson(hit, query.q)),
      nextCursor: page.nextCursor,
    };
  }
}
