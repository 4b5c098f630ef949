import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { END_USER_HEADER } from '../auth/effective-users';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { storedHeaderProblem } from '../http/header-text';
import { principalOf } from '../auth/request-principal';
import type { OwnDataCaller } from './sessions.service';

/** Handler parameter: the principal and the end user it names in `X-End-User-Id`. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): OwnDataCaller => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const header = request.headers[END_USER_HEADER];
  const requestedUserId = Array.isArray(header) ? header.join(',') : header;
  // The id names (and may create) a stored user: it must arrive as the portal wrote it.
  const problem = requestedUserId === undefined ? undefined : storedHeaderProblem(requestedUserId);
  if (problem !== undefined)
    throw new ApiError(ApiErrorCode.ValidationFailed, `header.${END_USER_HEADER}: ${problem}`);
  return { principal: principalOf(request), requestedUserId };
});
