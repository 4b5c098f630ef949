import type { Principal } from '@agentdesk/authz';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError, ApiErrorCode, UNAUTHENTICATED_MESSAGE } from '../errors/api-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the global guard on routes that are not public. */
    principal?: Principal;
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
