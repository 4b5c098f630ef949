import { can, type Principal } from '@agentdesk/authz';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import {
  AMBIGUOUS_CREDENTIALS_MESSAGE,
  ApiError,
  ApiErrorCode,
  UNAUTHENTICATED_MESSAGE,
} from '../errors/api-error';
import { ApiMetrics } from '../metrics/api-metrics';
import { ROUTE_POLICY, type RoutePolicy, type WayIn } from '../routes/route-policy';
import type { AuthenticationFailure } from './authentication-result';
import type { AuthenticationInfo } from './credential-strategy';
import { PASSPORT, type PassportAuthenticator } from './passport-instance';
import { runStrategy } from './passport-runner';
import { RateLimits } from './rate-limits';
import {
  CONSOLE_SESSION_REQUIRED_MESSAGE,
  presentedWayOf,
  selectWayIn,
  wayNotAcceptedMessage,
} from './ways-in';

/**
 * The global guard, deny by default:
 * 1. a route without a policy (`@Public()` or `@RequireScope(...)`, on the handler or its class) is refused;
 * 2. a public route passes without authentication;
 * 3. otherwise the request is authenticated through passport by the strategy of the way in it
 *    presents, if the route takes that way (`RequireScope(scope, { ways })`; 401 with one body per
 *    way for every failure; the principal is kept on `request.principal`, the way on `request.wayIn`),
 *    the principal's rate limit is counted (429 + `Retry-After`), and its role must hold the scope (403).
 * Ownership of the resource is not decided here: handlers query with the effective user.
 *
 * Not `@nestjs/passport`'s `AuthGuard`: that one fixes its strategies when its class is made and
 * authenticates through the process-wide passport, where routes here choose theirs by policy and each
 * app has its own registry (`PASSPORT`). It runs passport the same way (`runStrategy`).
 */
@Injectable()
export class ApiAccessGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(PASSPORT) private readonly passport: PassportAuthenticator,
    @Inject(RateLimits) private readonly rateLimits: RateLimits,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (policy === undefined) {
      throw new ApiError(ApiErrorCode.Forbidden, 'This route declares no access policy, so it is closed');
    }
    if (policy.kind === 'public') return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = await this.authenticate(request, policy.ways);
    request.principal = principal;
    await this.rateLimits.consume(request);
    if (!can(principal, policy.scope)) {
      throw new ApiError(
        ApiErrorCode.Forbidden,
        `A ${describe(principal)} may not use this function (needs ${policy.scope})`,
      );
    }
    return true;
  }

  private async authenticate(
    request: FastifyRequest,
    accepted: readonly [WayIn, ...WayIn[]],
  ): Promise<Principal> {
    const selection = selectWayIn(presentedWayOf(request.raw.rawHeaders), accepted);
    if (selection.kind === 'refuse') {
      if (selection.failure === 'ambiguous') return this.refuse(request, 'api-key', 'ambiguous');
      this.metrics.authenticationFailures.inc({ reason: 'way-not-accepted' });
      // Not a guess at a credential (it was not even judged): not counted against the address.
      throw new ApiError(ApiErrorCode.Unauthenticated, wayNotAcceptedMessage(selection.presented, accepted));
    }
    const way = selection.way;
    // A valid credential is judged on its own: earlier failures from its address never refuse it.
    const outcome = await runStrategy(this.passport, way, request);
    switch (outcome.kind) {
      case 'success': {
        request.wayIn = way;
        const info = outcome.info as AuthenticationInfo | undefined;
        if (info?.consoleSessionId !== undefined) request.consoleSessionId = info.consoleSessionId;
        return outcome.user as Principal;
      }
      case 'fail':
        return this.refuse(request, way, outcome.challenge as AuthenticationFailure);
      case 'error':
        throw outcome.error;
      case 'redirect':
      case 'pass':
        // No way in of this API redirects or passes yet (an OpenID Connect start would redirect).
        throw new Error(`The ${way} strategy answered "${outcome.kind}", which this guard does not serve`);
    }
  }

  private async refuse(request: FastifyRequest, way: WayIn, failure: AuthenticationFailure): Promise<never> {
    this.metrics.authenticationFailures.inc({
      reason: way === 'api-key' ? failure : `${way}:${failure}`,
    });
    // A request without any credential is not a guess; only presented credentials count (and may answer 429).
    if (failure !== 'missing') {
      await this.rateLimits.recordCredentialFailure(
        request,
        way === 'api-key' ? undefined : `auth-failures:${request.ip}:${way}`,
      );
    }
    throw new ApiError(ApiErrorCode.Unauthenticated, refusalMessage(way, failure));
  }
}

function refusalMessage(way: WayIn, failure: AuthenticationFailure): string {
  if (failure === 'ambiguous') return AMBIGUOUS_CREDENTIALS_MESSAGE;
  return way === 'api-key' ? UNAUTHENTICATED_MESSAGE : CONSOLE_SESSION_REQUIRED_MESSAGE;
}

function describe(principal: Principal): string {
  return principal.kind === 'anonymous' ? 'dev-mode anonymous user' : `${principal.role} key`;
}
