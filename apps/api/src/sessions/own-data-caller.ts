import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { END_USER_HEADER } from '../auth/effective-users';
import { principalOf } from '../auth/request-principal';
import type { OwnDataCaller } from './sessions.service';

/** Handler parameter: the principal and the end user it names in `X-End-User-Id`. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): OwnDataCaller => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const header = request.headers[END_USER_HEADER];
  return {
    principal: principalOf(request),
    requestedUserId: Array.isArray(header) ? header.join(',') : header,
  };
});
