import { can, type Principal } from '@agentdesk/authz';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ApiError, ApiErrorCode, UNAUTHENTICATED_MESSAGE } from '../errors/api-error';
import { RateLimits } from './rate-limits';
import type { AccessContext } from '../core/access-context';
import { ACCESS_CONTEXT } from '../core/tokens';
import { PRINCIPAL_PROPERTY, principalOf } from './request-principal';
import { ROUTE_POLICY, type RoutePolicy } from '../routes/route-policy';

/**
 * The global guard, deny by default:
 * 1. a route without a policy (`@Public()` or `@RequireScope(...)`, on the handler or its class) is refused;
 * 2. a public route passes without authentication;
 * 3. otherwise passport authenticates (401 with one body for every failure), the principal's
 *    rate limit is counted (429 + `Retry-After`), and its role must hold the scope (403).
 * Ownership of the resource is not decided here: handlers query with the effective user.
 */
@Injectable()
export class ApiAccessGuard extends AuthGuard() implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(RateLimits) private readonly rateLimits: RateLimits,
    @Inject(ACCESS_CONTEXT) access: AccessContext,
  ) {
    // This app instance's strategy (see `AccessContext.strategyName`); passport stores the result on `request.principal`.
    super({ defaultStrategy: access.strategyName, property: PRINCIPAL_PROPERTY });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (policy === undefined) {
      throw new ApiError(ApiErrorCode.Forbidden, 'This route declares no access policy, so it is closed');
    }
    if (policy.kind === 'public') return true;

    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = principalOf(request);
    await this.rateLimits.consume(request);
    if (!can(principal, policy.scope)) {
      throw new ApiError(
        ApiErrorCode.Forbidden,
        `A ${describe(principal)} may not use this function (needs ${policy.scope})`,
      );
    }
    return true;
  }

  override handleRequest<TUser = Principal>(error: unknown, user: TUser | false | null): TUser {
    if (error !== null && error !== undefined) throw error;
    if (user === false || user === null || user === undefined)
      throw new ApiError(ApiErrorCode.Unauthenticated, UNAUTHENTICATED_MESSAGE);
    return user;
  }
}

function describe(principal: Principal): string {
  return principal.kind === 'anonymous' ? 'dev-mode anonymous user' : `${principal.role} key`;
}
