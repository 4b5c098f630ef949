import type { Principal } from '@agentdesk/authz';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { END_USER_HEADER } from '../http/header-names';
import { storedHeaderProblem } from '../http/header-text';
import { principalOf } from './request-principal';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { headerSentOnce } from '../http/raw-headers';

/** Who is asking: the principal and the end user it names (portals only). */
export interface OwnDataCaller {
  readonly principal: Principal;
  readonly requestedUserId: string | undefined;
}

/**
 * Handler parameter: the principal and the end user it names in `X-End-User-Id`. The header is
 * read from the raw list: Node would join two of them into one name ("carol, dave"), so a request
 * naming more than one end user is refused instead of acting for a user nobody named.
 */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): OwnDataCaller => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const requestedUserId = headerSentOnce(
    request.raw.rawHeaders,
    END_USER_HEADER,
    'a request acts for one end user',
  );
  // The id names (and may create) a stored user: it must arrive as the portal wrote it.
  const problem = requestedUserId === undefined ? undefined : storedHeaderProblem(requestedUserId);
  if (problem !== undefined)
    throw new ApiError(ApiErrorCode.ValidationFailed, `header.${END_USER_HEADER}: ${problem}`);
  return { principal: principalOf(request), requestedUserId };
});
