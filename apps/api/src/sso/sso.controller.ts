import {
  createdConsoleSessionJsonSchema,
  ssoExchangeBodySchema,
  ssoSignInOptionsJsonSchema,
  type CreatedConsoleSessionJson,
  type SsoExchangeBody,
  type SsoSignInOptionsJson,
} from '@agentdesk/api-contract';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { Logger } from 'pino';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { auditActions } from '../shared/audit/audit-actions';
import { Audited } from '../shared/audit/audited';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { Refuses, Returns } from '../http/openapi-decorators';
import { ValidBody } from '../http/validated';
import { Public } from '../routes/route-policy';
import { SsoFlow } from './sso-flow';
import { SsoRefusalAudit } from './sso-refusal-audit';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoSignInError } from './sso-problems';

/**
 * OpenID Connect single sign-on across two origins: the browser starts at the API
 * (`/v1/sso/start` → the provider), comes back to the API (`/v1/sso/callback`), and is sent on to
 * the console with a one-time code (or a problem code); the console's server trades the code here
 * (`/v1/sso/exchange`, server to server) for a console session. Public routes: the flow cookie,
 * the provider's answer and the one-time code are their credentials.
 */
@ApiTags('console')
@Public()
@Controller('v1/sso')
export class SsoController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SsoFlow) private readonly flow: SsoFlow,
    @Inject(SsoSignInService) private readonly signIn: SsoSignInService,
    @Inject(SsoRefusalAudit) private readonly refusals: SsoRefusalAudit,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'How the console offers sign-in: single sign-on (and its name), API keys, or both',
  })
  @Returns(200, ssoSignInOptionsJsonSchema, 'The sign-in options')
  options(): SsoSignInOptionsJson {
    const sso = this.config.sso;
    if (sso === undefined) return { sso: null, keySignIn: true };
    return {
      sso: { providerName: sso.providerName, startUrl: new URL('/v1/sso/start', sso.apiPublicUrl).href },
      keySignIn: sso.allowKeySignIn,
    };
  }

  // Browser navigations that answer with redirects, not JSON: documented as such.
  @Get('start')
  @ApiOperation({
    summary:
      'Browser navigation: starts single sign-on (302 to the identity provider, or to the console with a problem code)',
  })
  @ApiResponse({ status: 302, description: 'Redirect to the identity provider or back to the console' })
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.flow.start(request, reply);
  }

  @Get('callback')
  @ApiOperation({
    summary:
      'Browser navigation: the identity provider returns here (302 to the console with a one-time code or a problem code)',
  })
  @ApiResponse({ status: 302, description: 'Redirect back to the console' })
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.flow.callback(request, reply);
  }

  @Post('exchange')
  @Audited(auditActions.consoleSignIn, { target: { kind: 'console-session' } })
  @ApiOperation({
    summary:
      'Trade the one-time code of a finished single sign-on for a console session (the console’s server calls it; audited)',
  })
  @Returns(201, createdConsoleSessionJsonSchema, 'The session and its token (shown once)')
  @Refuses(400, 401)
  async exchange(
    @Req() request: FastifyRequest,
    @ValidBody(ssoExchangeBodySchema) body: SsoExchangeBody,
  ): Promise<CreatedConsoleSessionJson> {
    try {
      const { created, principal } = await this.signIn.exchange(body.code, {
        clientAddress: body.clientAddress ?? null,
        userAgent: body.userAgent ?? null,
      });
      // The code named the person: their record names them as the actor of their own sign-in.
      request.principal = principal;
      request.auditedChange = {
        target: { kind: 'console-session', id: created.session.id },
        targetUserId: principal.id,
        wayIn: 'oidc',
        details: { consoleSessionId: created.session.id },
      };
      return created;
    } catch (error) {
      if (error instanceof SsoSignInError) {
        // Nobody is named by an unknown or used code: the trail would write no record of it.
        await this.refusals.record(request, { problem: error.problem, step: 'exchange' });
        throw new ApiError(
          ApiErrorCode.Unauthenticated,
          'This sign-in code is unknown, expired or used already',
        );
      }
      this.logger.error({ err: error, requestId: request.id }, 'single sign-on exchange failed');
      throw error;
    }
  }
}
