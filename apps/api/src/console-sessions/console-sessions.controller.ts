import { createdConsoleSessionJsonSchema, type CreatedConsoleSessionJson } from '@agentdesk/api-contract';
import { Controller, Delete, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { auditActions } from '../shared/audit/audit-actions';
import { Audited } from '../shared/audit/audited';
import { CurrentAuditContext } from '../shared/audit/audit-context';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import { CurrentConsoleSessionId } from '../auth/request-principal';
import {
  ApiKeyAuthenticated,
  ConsoleSessionAuthenticated,
  Refuses,
  Returns,
} from '../http/openapi-decorators';
import { ValidBody } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { createConsoleSessionBody, signInAttemptDetails } from './console-session-inputs';
import { ConsoleSessionsService } from './console-sessions.service';

/** The console's sign-in and sign-out: a session opened with a key, ended with its own token. */
@ApiTags('console')
@Refuses(400, 401, 403, 429)
@Controller('v1/console-sessions')
export class ConsoleSessionsController {
  constructor(@Inject(ConsoleSessionsService) private readonly consoleSessions: ConsoleSessionsService) {}

  // A key only: a console session must not beget more sessions (each would outlive the sign-out of the first).
  @Post()
  @RequireScope('console:sign-in', { ways: ['api-key'] })
  // A key refused here is a failed sign-in: recorded too, with the browser the console saw.
  @Audited(auditActions.consoleSignIn, {
    target: { kind: 'console-session' },
    failedCredentials: { details: signInAttemptDetails },
  })
  @ApiKeyAuthenticated()
  @ApiOperation({
    summary:
      'Open a console session for the person whose key calls (the console’s sign-in); the token is in this answer only (audited)',
  })
  @Returns(201, createdConsoleSessionJsonSchema, 'The session and its token (shown once)')
  create(
    @CurrentAuditContext() context: AuditContext,
    @ValidBody(createConsoleSessionBody) body: z.output<typeof createConsoleSessionBody>,
  ): Promise<CreatedConsoleSessionJson> {
    return this.consoleSessions.signIn(context, body);
  }

  @Delete('current')
  @RequireScope('console:sign-in', { ways: ['console-session'] })
  @Audited(auditActions.consoleSignOut, { target: { kind: 'console-session' } })
  @ConsoleSessionAuthenticated()
  @ApiOperation({
    summary:
      'End the console session this request comes with (sign-out): its token stops working at once (audited)',
  })
  @Returns(204, undefined, 'Signed out')
  async endCurrent(
    @CurrentAuditContext() context: AuditContext,
    @CurrentConsoleSessionId() consoleSessionId: string,
  ): Promise<void> {
    await this.consoleSessions.signOut(context, consoleSessionId);
  }
}
