import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PASSPORT, type PassportAuthenticator } from '../auth/passport-instance';
import { runStrategy } from '../auth/passport-runner';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import type { OidcProfile } from './oidc-strategy';
import { OIDC_STRATEGY, OidcRegistration } from './oidc-registration';
import { flowCookieHeader, FlowCookieSealer, readFlowCookie } from './sso-flow-cookie';
import { problemOfError, problemOfOutcome } from './sso-failure';
import { SsoRefusalAudit } from './sso-refusal-audit';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoSignInError, type SsoProblem } from './sso-problems';

/**
 * The browser's two stops at the API during a sign-in. Every ending is a redirect to the console —
 * with a one-time code, or with a problem code — never a JSON error or a 500: the person is in a
 * browser, and the console words each problem. The flow cookie is cleared on every callback, so a
 * callback URL replayed later finds no sign-in to finish.
 */
@Injectable()
export class SsoFlow {
  private sealer: FlowCookieSealer | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(PASSPORT) private readonly passport: PassportAuthenticator,
    @Inject(OidcRegistration) private readonly registration: OidcRegistration,
    @Inject(SsoSignInService) private readonly signIn: SsoSignInService,
    @Inject(SsoRefusalAudit) private readonly refusals: SsoRefusalAudit,
  ) {}

  async start(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    this.assertConfigured();
    try {
      await this.registration.ensureRegistered();
      const session: Record<string, unknown> = {};
      const outcome = await runStrategy(this.passport, OIDC_STRATEGY, request, session);
      const state = session[OIDC_STRATEGY];
      if (outcome.kind !== 'redirect' || typeof state !== 'object' || state === null) {
        return this.endWith(
          request,
          reply,
          'start',
          outcome.kind === 'redirect' ? 'sign-in-failed' : problemOfOutcome(outcome),
        );
      }
      reply.header(
        'set-cookie',
        flowCookieHeader(this.cookies().seal(state as Record<string, unknown>), this.secure()),
      );
      await reply.status(302).header('location', outcome.location).send();
    } catch (error) {
      await this.endWith(request, reply, 'start', problemOfError(error), error);
    }
  }

  async callback(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    this.assertConfigured();
    reply.header('set-cookie', flowCookieHeader(undefined, this.secure()));
    try {
      const flow = this.cookies().open(readFlowCookie(request.headers.cookie));
      const query = new URL(request.url, 'http://callback.invalid').searchParams;
      // No sign-in started in this browser, or another one's answer: openid-client would start a
      // new sign-in for a bare callback, and compare `state` only after a round trip to the provider.
      if (
        flow === undefined ||
        query.get('state') !== flow['state'] ||
        (!query.has('code') && !query.has('error'))
      ) {
        return await this.endWith(request, reply, 'callback', 'state-mismatch');
      }
      await this.registration.ensureRegistered();
      const outcome = await runStrategy(this.passport, OIDC_STRATEGY, request, { [OIDC_STRATEGY]: flow });
      if (outcome.kind !== 'success')
        return await this.endWith(
          request,
          reply,
          'callback',
          problemOfOutcome(outcome),
          outcome.kind === 'error' ? outcome.error : undefined,
        );
      const code = await this.signIn.complete(outcome.user as OidcProfile);
      await reply.status(302).header('location', this.consoleUrl({ code })).send();
    } catch (error) {
      await this.endWith(request, reply, 'callback', problemOfError(error), error);
    }
  }

  /**
   * Sends the browser to the console's page for `problem`: logged with what caused it, for the
   * operator, and recorded in the audit log as a refused sign-in.
   */
  private async endWith(
    request: FastifyRequest,
    reply: FastifyReply,
    step: 'start' | 'callback',
    problem: SsoProblem,
    cause?: unknown,
  ): Promise<void> {
    this.logger.warn(
      { problem, requestId: request.id, err: cause instanceof Error ? cause : undefined },
      'single sign-on refused',
    );
    const userId = cause instanceof SsoSignInError ? cause.userId : undefined;
    await this.refusals.record(request, { problem, step, ...(userId === undefined ? {} : { userId }) });
    await reply.status(302).header('location', this.consoleUrl({ problem })).send();
  }

  /** Without SSO there is no console page to send anyone to: the API's own 404, like an unknown route's. */
  private assertConfigured(): void {
    if (this.config.sso === undefined)
      throw new ApiError(ApiErrorCode.NotFound, 'Single sign-on is not configured on this API');
  }

  private consoleUrl(parameters: Readonly<Record<string, string>>): string {
    const url = new URL('/sign-in/sso', this.registration.settings().consolePublicUrl);
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    return url.href;
  }

  private cookies(): FlowCookieSealer {
    this.sealer ??= new FlowCookieSealer(this.registration.settings().clientSecret);
    return this.sealer;
  }

  private secure(): boolean {
    return this.config.sso?.apiPublicUrl.protocol === 'https:';
  }
}
