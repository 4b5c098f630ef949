import type { Principal } from '@agentdesk/authz';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/request-principal';
import { RequireScope } from '../auth/route-policy';
import { AUDIT_REASON_HEADER, AuditReasonHeader } from '../audit/audit-reason';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { RequestId } from '../http/request-id';
import { ValidParam, ValidQuery } from '../http/validated';
import { adminListSessionsQuery } from '../sessions/session-inputs';
import {
  messageJsonSchema,
  pageJsonSchema,
  sessionJsonSchema,
  type MessageJson,
  type SessionJson,
} from '../sessions/session-json';
import type { Page } from '@agentdesk/storage';
import { adminReadSessionQuery } from './admin-inputs';
import { AdminSessionsService, type SessionWithMessages } from './admin-sessions.service';

const sessionWithMessagesSchema = z.object({
  session: sessionJsonSchema,
  messages: pageJsonSchema(messageJsonSchema),
});

/** Any user's sessions, for admins and viewers (read-only QA). Reading a session is audited. */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@Controller('v1/admin/sessions')
export class AdminSessionsController {
  constructor(@Inject(AdminSessionsService) private readonly sessions: AdminSessionsService) {}

  @Get()
  @RequireScope('sessions:read-any')
  @ApiOperation({ summary: 'List every user’s sessions (filter by user, status, dates, label text)' })
  @Returns(200, pageJsonSchema(sessionJsonSchema), 'One page of sessions')
  list(
    @ValidQuery(adminListSessionsQuery) query: z.output<typeof adminListSessionsQuery>,
  ): Promise<Page<SessionJson>> {
    return this.sessions.list(query);
  }

  @Get(':id')
  @RequireScope('messages:read-any')
  @ApiOperation({
    summary: 'Read any session with its first page of messages (audited when it is another user’s)',
  })
  @ApiHeader({
    name: AUDIT_REASON_HEADER,
    required: false,
    description: 'Why you read this session (kept in the audit log)',
  })
  @Returns(200, sessionWithMessagesSchema, 'The session and one page of its messages')
  @Refuses(404)
  read(
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @AuditReasonHeader() headerReason: string | undefined,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(adminReadSessionQuery) query: z.output<typeof adminReadSessionQuery>,
  ): Promise<SessionWithMessages> {
    return this.sessions.read({ principal, requestId, reason: query.reason ?? headerReason }, id, query);
  }

  @Get(':id/messages')
  @RequireScope('messages:read-any')
  @ApiOperation({ summary: 'Read a page of any session’s messages (audited when it is another user’s)' })
  @ApiHeader({
    name: AUDIT_REASON_HEADER,
    required: false,
    description: 'Why you read this session (kept in the audit log)',
  })
  @Returns(200, pageJsonSchema(messageJsonSchema), 'One page of messages')
  @Refuses(404)
  readMessages(
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @AuditReasonHeader() headerReason: string | undefined,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(adminReadSessionQuery) query: z.output<typeof adminReadSessionQuery>,
  ): Promise<Page<MessageJson>> {
    return this.sessions.readMessages(
      { principal, requestId, reason: query.reason ?? headerReason },
      id,
      query,
    );
  }
}
