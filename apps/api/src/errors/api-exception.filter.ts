import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { pathOfUrl } from '../http/allowed-methods';
import { ApiError, ApiErrorCode } from './api-error';
import { errorBody } from './error-body';
import { httpStatusOf } from './http-status';
import { toApiError } from './to-api-error';

/** Paths whose routes answer errors in another API's shape (the OpenAI-compatible routes). */
export interface ErrorShapeOverride {
  /** True for a request path (no query string) this shape answers for. */
  matches(path: string): boolean;
  send(exception: unknown, request: FastifyRequest, reply: FastifyReply): void;
}

/** What the filter needs besides the logger; every part is optional. */
export interface ApiExceptionFilterOptions {
  /** Counts each error answered (a metric). */
  readonly onError?: (code: ApiErrorCode) => void;
  /** Other shapes for some paths, so even a 404 or a body error there looks like that API's. */
  readonly overrides?: readonly ErrorShapeOverride[];
  /** The methods a path does allow, to answer 405 instead of 404 for a known path. */
  readonly allowedMethods?: (path: string) => readonly string[];
}

/**
 * The one place errors become HTTP answers: `{ error: { code, message, requestId } }` with the
 * status of `httpStatusOf(code)`. Registered globally, so it also handles Fastify's own request
 * errors (oversized or malformed bodies, hooks) and Nest's not-found handler; `send` is also
 * called for errors Fastify raises before routing.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly options: ApiExceptionFilterOptions = {},
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.send(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /** Answers one failure in the shape of the request's path. */
  send(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const path = pathOf(request);
    const refined = this.methodNotAllowed(exception, request, path) ?? exception;
    const override = this.options.overrides?.find((candidate) => candidate.matches(path));
    if (override !== undefined) {
      override.send(refined, request, reply);
      return;
    }
    const error = toApiError(refined);
    const status = httpStatusOf(error.code);
    const requestId = typeof request?.id === 'string' ? request.id : null;
    if (status >= 500) {
      this.logger.error({ err: exception, requestId, code: error.code }, 'request failed');
    } else {
      this.logger.debug({ requestId, code: error.code, reason: error.message }, 'request refused');
    }
    this.options.onError?.(error.code);
    if (reply.sent) return;
    if (error.retryAfterSeconds !== undefined)
      void reply.header('retry-after', String(error.retryAfterSeconds));
    if (error.allowedMethods !== undefined) void reply.header('allow', error.allowedMethods.join(', '));
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(errorBody(error, requestId));
  }

  // Nest's not-found handler answers every unmatched request; a path that exists with other methods is a 405.
  private methodNotAllowed(exception: unknown, request: FastifyRequest, path: string): ApiError | undefined {
    if (this.options.allowedMethods === undefined || request?.routeOptions?.url !== undefined)
      return undefined;
    if (toApiError(exception).code !== ApiErrorCode.RouteNotFound) return undefined;
    const allowed = this.options.allowedMethods(path);
    if (allowed.length === 0) return undefined;
    return new ApiError(
      ApiErrorCode.MethodNotAllowed,
      `This path does not take ${request.method} (allowed: ${allowed.join(', ')})`,
      { allowedMethods: allowed },
    );
  }
}

function pathOf(request: FastifyRequest | undefined): string {
  return pathOfUrl(typeof request?.url === 'string' ? request.url : '/');
}
