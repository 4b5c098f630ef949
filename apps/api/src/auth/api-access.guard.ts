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
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { RateLimits } from './rate-limits';
import { ROUTE_POLICY, type RoutePolicy } from '../routes/route-policy';

/**
 * The global guard, deny by default:
 * 1. a route without a policy (`@Public()` or `@RequireScope(...)`, on the handler or its class) is refused;
 * 2. a public route passes without authentication;
 * 3. otherwise the request's API key is authenticated (401 with one body for every failure; the
 *    principal is kept on `request.principal`), the principal's rate limit is counted (429 +
 *    `Retry-After`), and its role must hold the scope (403).
 * Ownership of the resource is not decided here: handlers query with the effective user.
 */
@Injectable()
export class ApiAccessGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
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
    const principal = await this.authenticate(request);
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

  /** API keys from `Authorization: Bearer` or `X-API-Key` (and the anonymous principal in dev mode). */
  private async authenticate(request: FastifyRequest): Promise<Principal> {
    // A valid key is judged on its own: earlier failures from its address never refuse it.
    const result = await this.authenticator.authenticate(request);
    if (result.ok) return result.principal;
    this.metrics.authenticationFailures.inc({ reason: result.failure });
    // A request without any credential is not a guess; only presented credentials count (and may answer 429).
    if (result.failure !== 'missing') await this.rateLimits.recordCredentialFailure(request);
    throw new ApiError(
      ApiErrorCode.Unauthenticated,
      result.failure === 'ambiguous' ? AMBIGUOUS_CREDENTIALS_MESSAGE : UNAUTHENTICATED_MESSAGE,
    );
  }
}

function describe(principal: Principal): string {
  return principal.kind === 'anonymous' ? 'dev-mode anonymous user' : `${principal.role} key`;
}
