import type { Principal } from '@agentdesk/authz';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError, ApiErrorCode, UNAUTHENTICATED_MESSAGE } from '../errors/api-error';
import type { WayIn } from '../routes/route-policy';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the global guard on routes that are not public. */
    principal?: Principal;
    /** The way in the guard authenticated the request through. */
    wayIn?: WayIn;
    /** The console session a `console-session` request came in with (its public id). */
    consoleSessionId?: string;
  }
}

/** The authenticated principal; throws 401 if a route forgot its policy and reached a handler anyway. */
export function principalOf(request: FastifyRequest): Principal {
  const principal = request.principal;
  if (principal === undefined) throw new ApiError(ApiErrorCode.Unauthenticated, UNAUTHENTICATED_MESSAGE);
  return principal;
}

/** Handler parameter: the authenticated principal. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal =>
  principalOf(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** Handler parameter: the console session the request came in with (routes that take only that way). */
export const CurrentConsoleSessionId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.consoleSessionId === undefined)
      throw new ApiError(ApiErrorCode.Unauthenticated, UNAUTHENTICATED_MESSAGE);
    return request.consoleSessionId;
  },
);
