import { Controller, Get, HttpCode, Inject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id';
import { LiveTurnHub } from '../shared/live-turns/live-turn-hub';
import { streamSessionLiveFeed } from './session-live-feed';
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
  adminFollowSessionQuery,
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
  constructor(
    @Inject(AdminSessionsService) private readonly sessions: AdminSessionsService,
    @Inject(LiveTurnHub) private readonly live: LiveTurnHub,
  ) {}

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

  @Get(':id/live')
  @RequireScope('messages:read-any')
  @ApiOperation({
    summary: 'Follow any session live: its turns’ events as they happen (audited when it is another user’s)',
    description:
      'Server-Sent Events (`event: <type>`, JSON data) until the client leaves: first `snapshot` (the stored ' +
      'message seq the feed starts after, and the text the running turn had already streamed), then turn-start, ' +
      'text-delta (consecutive deltas may arrive joined), tool-call, tool-result, message-complete and turn-end ' +
      '(then read the stored transcript). A heartbeat comment every 15 s. A reader too slow for the turn gets ' +
      '`dropped` and the stream ends. Turns on other replicas arrive through Redis when it is configured.',
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'The event stream' })
  @HttpCode(200)
  @Refuses(404)
  async follow(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(adminFollowSessionQuery) query: z.output<typeof adminFollowSessionQuery>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    // A missing session (404) is found and the read audited before the stream starts.
    await this.sessions.recordLiveRead(withQueryReason(context, query.reason), id);
    reply.hijack();
    await streamSessionLiveFeed(reply.raw, {
      hub: this.live,
      sessionId: id,
      readSession: () => this.sessions.sessionForAdmin(id),
      headers: { [REQUEST_ID_HEADER]: requestIdOf(request.raw) },
    });
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
