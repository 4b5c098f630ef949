import type { Principal } from '@agentdesk/authz';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { END_USER_HEADER } from '../http/header-names';
import { storedHeaderProblem } from '../http/header-text';
import { principalOf } from './request-principal';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { headerSentOnce } from '../http/raw-headers';
import { endUserNameSent, type EndUserNameSource } from './end-user-name';
import type { ResolveMode } from './effective-users';

/** Who is asking: the principal and the end user it names (portals only). */
export interface OwnDataCaller {
  readonly principal: Principal;
  readonly requestedUserId: string | undefined;
  /** The end user's display name (`X-End-User-Name`, or the body's `endUserName`), stored with the portal's end user. */
  readonly requestedUserName?: string | undefined;
  /** Where that name was sent (an error refusing it names the field). */
  readonly requestedUserNameSource?: EndUserNameSource | undefined;
}

/** What a route's `@Owner()` says: whether it may create the end user, and whether its body may name them. */
export interface CallerOptions {
  readonly mode?: ResolveMode;
  /** The route's body has an `endUserName` field (creating a session, sending a message). */
  readonly endUserNameInBody?: boolean;
}

/**
 * Handler parameter: the principal and the end user it names in `X-End-User-Id`. The header is
 * read from the raw list: Node would join two of them into one name ("carol, dave"), so a request
 * naming more than one end user is refused instead of acting for a user nobody named.
 */
export const Caller = createParamDecorator(
  (options: CallerOptions | undefined, context: ExecutionContext): OwnDataCaller => {
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
    const sentName = endUserNameSent(
      request.raw.rawHeaders,
      options?.endUserNameInBody === true ? request.body : undefined,
    );
    return {
      principal: principalOf(request),
      requestedUserId,
      requestedUserName: sentName?.name,
      requestedUserNameSource: sentName?.source,
    };
  },
);
