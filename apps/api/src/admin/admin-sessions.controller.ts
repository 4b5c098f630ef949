import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { RequireScope } from '../routes/route-policy';
import { CurrentAuditContext, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidParam, ValidQuery } from '../http/validated';
import {
  messageJsonSchema,
  pageJsonSchema,
  sessionJsonSchema,
  toolResultPageJsonSchema,
  type MessageJson,
  type SessionJson,
  type ToolResultPageJson,
} from '@agentdesk/api-contract';
import type { Page } from '@agentdesk/storage';
import {
  adminListSessionsAuditedQuery,
  adminReadSessionQuery,
  adminReadToolResultQuery,
  toolCallIdSchema,
} from './admin-inputs';
import { AdminSessionsService, type SessionWithMessages } from './admin-sessions.service';

const sessionWithMessagesSchema = z.object({
  session: sessionJsonSchema,
  messages: pageJsonSchema(messageJsonSchema),
});

/** Any user's sessions, for admins and viewers (read-only QA). Listing and reading them is audited. */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@DocumentsAuditReason()
@Controller('v1/admin/sessions')
export class AdminSessionsController {
  constructor(@Inject(AdminSessionsService) private readonly sessions: AdminSessionsService) {}

  @Get()
  @RequireScope('sessions:read-any')
  @ApiOperation({
    summary:
      'List every user’s sessions (filter by user, portal, model, status, dates, label text; audited unless filtered to your own user)',
  })
  @Returns(200, pageJsonSchema(sessionJsonSchema), 'One page of sessions')
  list(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(adminListSessionsAuditedQuery) query: z.output<typeof adminListSessionsAuditedQuery>,
  ): Promise<Page<SessionJson>> {
    return this.sessions.list(withQueryReason(context, query.reason), query);
  }

  @Get(':id')
  @RequireScope('messages:read-any')
  @ApiOperation({
    summary: 'Read any session with its first page of messages (audited when it is another user’s)',
  })
  @Returns(200, sessionWithMessagesSchema, 'The session and one page of its messages')
  @Refuses(404)
  read(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(adminReadSessionQuery) query: z.output<typeof adminReadSessionQuery>,
  ): Promise<SessionWithMessages> {
    return this.sessions.read(withQueryReason(context, query.reason), id, query);
  }

  @Get(':id/messages')
  @RequireScope('messages:read-any')
  @ApiOperation({ summary: 'Read a page of any session’s messages (audited when it is another user’s)' })
  @Returns(200, pageJsonSchema(messageJsonSchema), 'One page of messages')
  @Refuses(404)
  readMessages(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(adminReadSessionQuery) query: z.output<typeof adminReadSessionQuery>,
  ): Promise<Page<MessageJson>> {
    return this.sessions.readMessages(withQueryReason(context, query.reason), id, query);
  }

  @Get(':id/tool-results/:toolCallId')
  @RequireScope('messages:read-any')
  @ApiOperation({
    summary:
      'Read a page of the full stored output of one tool call in any session (the transcript may hold a truncated copy; audited when it is another user’s)',
  })
  @Returns(
    200,
    toolResultPageJsonSchema,
    'One page of the stored tool result; follow nextOffset for the rest',
  )
  @Refuses(404)
  readToolResult(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
    @ValidParam('toolCallId', toolCallIdSchema) toolCallId: string,
    @ValidQuery(adminReadToolResultQuery) query: z.output<typeof adminReadToolResultQuery>,
  ): Promise<ToolResultPageJson> {
    return this.sessions.readToolResult(withQueryReason(context, query.reason), id, toolCallId, query);
  }
}
