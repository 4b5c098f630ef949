import {
  consoleSessionJsonSchema,
  endedConsoleSessionsJsonSchema,
  pageJsonSchema,
  type ConsoleSessionJson,
  type EndedConsoleSessionsJson,
} from '@agentdesk/api-contract';
import { Controller, Delete, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import type { Page } from '@agentdesk/storage';
import { auditActions } from '../shared/audit/audit-actions';
import { Audited } from '../shared/audit/audited';
import { CurrentAuditContext, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason } from '../shared/audit/audit-reason';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidParam, ValidQuery } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { listConsoleSessionsQuery } from './console-session-inputs';
import { ConsoleSessionsService } from './console-sessions.service';

/** Everyone's console sessions, for admins: list, end one, end all of a user's. */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@Controller('v1/admin')
export class AdminConsoleSessionsController {
  constructor(@Inject(ConsoleSessionsService) private readonly consoleSessions: ConsoleSessionsService) {}

  @Get('console-sessions')
  @RequireScope('console-sessions:read')
  @ApiOperation({
    summary:
      'List console sessions, newest first: open ones (ended and timed-out ones with includeEnded=true), one user’s with userId (audited)',
  })
  @DocumentsAuditReason()
  @Returns(200, pageJsonSchema(consoleSessionJsonSchema), 'One page of console sessions')
  list(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(listConsoleSessionsQuery) query: z.output<typeof listConsoleSessionsQuery>,
  ): Promise<Page<ConsoleSessionJson>> {
    return this.consoleSessions.list(withQueryReason(context, query.reason), query);
  }

  @Delete('console-sessions/:id')
  @RequireScope('console-sessions:write')
  @Audited(auditActions.consoleSessionEnd, { target: { kind: 'console-session', idParam: 'id' } })
  @ApiOperation({ summary: 'End one console session: its token stops working at once (audited)' })
  @Returns(200, consoleSessionJsonSchema, 'The ended session')
  @Refuses(404)
  end(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
  ): Promise<ConsoleSessionJson> {
    return this.consoleSessions.end(context, id);
  }

  @Delete('users/:id/console-sessions')
  @RequireScope('console-sessions:write')
  @Audited(auditActions.consoleSessionsEndAll, { target: { kind: 'user', idParam: 'id' } })
  @ApiOperation({
    summary: 'Sign a user out everywhere: end every open console session of theirs (audited)',
  })
  @Returns(200, endedConsoleSessionsJsonSchema, 'How many sessions were ended')
  @Refuses(404)
  endAllOfUser(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) userId: string,
  ): Promise<EndedConsoleSessionsJson> {
    return this.consoleSessions.endAllOfUser(context, userId);
  }
}
