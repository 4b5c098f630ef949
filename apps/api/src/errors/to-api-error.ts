import { isAuthzError } from '@agentdesk/authz';
import { HttpException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { isStorageError } from '@agentdesk/storage';
import {
  ApiError,
  ApiErrorCode,
  HEADERS_TOO_LARGE_MESSAGE,
  UNAUTHENTICATED_MESSAGE,
  UNSUPPORTED_MEDIA_TYPE_MESSAGE,
} from './api-error';
import { fromAuthzError, fromStorageError } from './domain-errors';

const internalMessage = 'Internal server error';

/**
 * Turns anything thrown while serving a request into an `ApiError`: our own, the domain errors of
 * authz and storage, Nest's HTTP exceptions and Fastify's request errors (body parsing, size).
 * Whatever is left is a bug and becomes `Internal` without leaking its message.
 */
export function toApiError(exception: unknown): ApiError {
  if (exception instanceof ApiError) return exception;
  if (isAuthzError(exception)) return fromAuthzError(exception);
  if (isStorageError(exception)) return fromStorageError(exception);
  if (exception instanceof NotFoundException)
    return new ApiError(ApiErrorCode.RouteNotFound, 'No route matches this method and path');
  if (exception instanceof UnauthorizedException)
    return new ApiError(ApiErrorCode.Unauthenticated, UNAUTHENTICATED_MESSAGE);
  if (exception instanceof HttpException)
    return fromStatus(exception.getStatus(), exception.message, exception);
  const fastifyStatus = fastifyClientErrorStatus(exception);
  if (fastifyStatus !== undefined)
    return fromStatus(fastifyStatus, fastifyMessage(exception, fastifyStatus), exception);
  return new ApiError(ApiErrorCode.Internal, internalMessage, { cause: exception });
}

function fromStatus(status: number, message: string, cause: unknown): ApiError {
  switch (status) {
    case 400:
      return new ApiError(ApiErrorCode.ValidationFailed, message, { cause });
    case 401:
      return new ApiError(ApiErrorCode.Unauthenticated, UNAUTHENTICATED_MESSAGE, { cause });
    case 403:
      return new ApiError(ApiErrorCode.Forbidden, message, { cause });
    case 404:
      return new ApiError(ApiErrorCode.RouteNotFound, 'No route matches this method and path', { cause });
    case 413:
      return new ApiError(
        ApiErrorCode.PayloadTooLarge,
        'The request body is larger than the configured limit',
        { cause },
      );
    case 408:
      return new ApiError(ApiErrorCode.RequestTimeout, 'The request was not received in time', { cause });
    case 415:
      return new ApiError(ApiErrorCode.UnsupportedMediaType, UNSUPPORTED_MEDIA_TYPE_MESSAGE, { cause });
    case 431:
      return new ApiError(ApiErrorCode.HeadersTooLarge, HEADERS_TOO_LARGE_MESSAGE, { cause });
    case 429:
      return new ApiError(ApiErrorCode.RateLimited, 'Too many requests', { cause });
    default:
      // Any other client error from the framework is still the client's to fix.
      if (status >= 400 && status < 500)
        return new ApiError(ApiErrorCode.ValidationFailed, message, { cause });
      return new ApiError(ApiErrorCode.Internal, internalMessage, { cause });
  }
}

/** Fastify rejects malformed requests with errors carrying a 4xx `statusCode` (and an `FST_` code). */
function fastifyClientErrorStatus(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { statusCode } = exception as { statusCode?: unknown };
  return typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : undefined;
}

function fastifyMessage(exception: unknown, status: number): string {
  const code = (exception as { code?: unknown }).code;
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'body: a JSON body was announced but is empty';
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || exception instanceof SyntaxError)
    return 'body: not valid JSON';
  if (status === 400) return 'The request is malformed';
  return exception instanceof Error ? exception.message : 'The request is malformed';
}
