import { Controller, Delete, Get, Inject, Patch, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { END_USER_HEADER } from '../http/header-names';
import { RequireScope } from '../routes/route-policy';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidBody, ValidParam, ValidQuery } from '../http/validated';
import type { Page } from '@agentdesk/storage';
import { Owner, type EffectiveOwner } from '../auth/effective-owner';
import { auditActions } from '../shared/audit/audit-actions';
import { Audited, NotAudited } from '../shared/audit/audited';
import { CurrentAuditContext } from '../shared/audit/audit-context';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import {
  closeSessionBody,
  createSessionBody,
  listMessagesQuery,
  listSessionsQuery,
  updateSessionBody,
} from './session-inputs';
import {
  messageJsonSchema,
  pageJsonSchema,
  sessionJsonSchema,
  type MessageJson,
  type SessionJson,
} from '@agentdesk/api-contract';
import { SessionsService } from './sessions.service';

/** The effective user's own sessions. */
@ApiTags('sessions')
@ApiKeyAuthenticated()
@ApiHeader({
  name: END_USER_HEADER,
  required: false,
  description: 'Trusted portal keys only: the portal’s id of the end user the request acts for',
})
@Refuses(400, 401, 403, 429)
@Controller('v1/sessions')
export class SessionsController {
  constructor(@Inject(SessionsService) private readonly sessions: SessionsService) {}

  @Post()
  @RequireScope('sessions:write')
  @NotAudited(
    'the effective user’s own conversation, at portal volume; the row records its creation, not an administrative change',
  )
  @ApiOperation({ summary: 'Create a session for the effective user' })
  @Returns(201, sessionJsonSchema, 'The new session')
  @Refuses(413)
  create(
    @Owner('create', { endUserNameInBody: true }) owner: EffectiveOwner,
    @ValidBody(createSessionBody) body: z.output<typeof createSessionBody>,
  ): Promise<SessionJson> {
    return this.sessions.create(owner, body);
  }

  @Get()
  @RequireScope('sessions:read')
  @ApiOperation({ summary: 'List the effective user’s sessions, newest first (cursor pagination, filters)' })
  @Returns(200, pageJsonSchema(sessionJsonSchema), 'One page of sessions')
  list(
    @Owner() owner: EffectiveOwner,
    @ValidQuery(listSessionsQuery) query: z.output<typeof listSessionsQuery>,
  ): Promise<Page<SessionJson>> {
    return this.sessions.list(owner, query);
  }

  @Get(':id')
  @RequireScope('sessions:read')
  @ApiOperation({ summary: 'Read one of the effective user’s sessions' })
  @Returns(200, sessionJsonSchema, 'The session')
  @Refuses(404)
  get(@Owner() owner: EffectiveOwner, @ValidParam('id', idSchema) id: string): Promise<SessionJson> {
    return this.sessions.get(owner, id);
  }

  @Patch(':id')
  @RequireScope('sessions:write')
  @NotAudited('the effective user renames or retunes their own conversation; not an administrative change')
  @ApiOperation({ summary: 'Rename a session (or change its model, system prompt, metadata)' })
  @Returns(200, sessionJsonSchema, 'The updated session')
  @Refuses(404, 413)
  update(
    @Owner() owner: EffectiveOwner,
    @ValidParam('id', idSchema) id: string,
    @ValidBody(updateSessionBody) body: z.output<typeof updateSessionBody>,
  ): Promise<SessionJson> {
    return this.sessions.update(owner, id, body);
  }

  @Post(':id/close')
  @RequireScope('sessions:write')
  @NotAudited('the effective user closes their own conversation; the row keeps its status, nothing is lost')
  @ApiOperation({ summary: 'Close a session (idempotent); a closed session takes no new messages' })
  @Returns(200, sessionJsonSchema, 'The closed session')
  @Refuses(404)
  close(
    @Owner() owner: EffectiveOwner,
    @ValidParam('id', idSchema) id: string,
    @ValidBody(closeSessionBody) body: z.output<typeof closeSessionBody>,
  ): Promise<SessionJson> {
    return this.sessions.close(owner, id, body);
  }

  // Unlike the other changes of one's own conversation, a deletion cannot be undone or seen afterwards:
  // the record is what answers "where did this conversation go, and who removed it?".
  @Delete(':id')
  @RequireScope('sessions:write')
  @Audited(auditActions.sessionDelete, { target: { kind: 'session', idParam: 'id' } })
  @ApiOperation({ summary: 'Delete a session with its messages and tool results (audited)' })
  @Returns(204, undefined, 'Deleted')
  @Refuses(404)
  async delete(
    @CurrentAuditContext() context: AuditContext,
    @Owner() owner: EffectiveOwner,
    @ValidParam('id', idSchema) id: string,
  ): Promise<void> {
    await this.sessions.delete(owner, id);
    context.describeChange({
      target: { kind: 'session', id },
      targetUserId: owner.ownerUserId,
      sessionId: id,
    });
  }

  @Get(':id/messages')
  @RequireScope('messages:read')
  @ApiOperation({ summary: 'List a session’s messages in order' })
  @Returns(200, pageJsonSchema(messageJsonSchema), 'One page of messages')
  @Refuses(404)
  listMessages(
    @Owner() owner: EffectiveOwner,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(listMessagesQuery) query: z.output<typeof listMessagesQuery>,
  ): Promise<Page<MessageJson>> {
    return this.sessions.listMessages(owner, id, query);
  }
}
