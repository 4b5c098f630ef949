import { ApiErrorCode } from './api-error';
import { assertNever } from './assert-never';

/** The HTTP status of each code. Exhaustive: adding a code without a status does not compile. */
export function httpStatusOf(code: ApiErrorCode): number {
  switch (code) {
    case ApiErrorCode.ValidationFailed:
      return 400;
    case ApiErrorCode.Unauthenticated:
      return 401;
    case ApiErrorCode.Forbidden:
    case ApiErrorCode.EndUserRequired:
      return 403;
    case ApiErrorCode.NotFound:
    case ApiErrorCode.RouteNotFound:
      return 404;
    case ApiErrorCode.MethodNotAllowed:
      return 405;
    case ApiErrorCode.RequestTimeout:
      return 408;
    case ApiErrorCode.Conflict:
    case ApiErrorCode.SessionClosed:
      return 409;
    case ApiErrorCode.PayloadTooLarge:
      return 413;
    case ApiErrorCode.IdempotencyKeyReused:
      return 422;
    case ApiErrorCode.UnsupportedMediaType:
      return 415;
    case ApiErrorCode.RateLimited:
      return 429;
    case ApiErrorCode.HeadersTooLarge:
      return 431;
    case ApiErrorCode.Internal:
      return 500;
    case ApiErrorCode.UnknownModel:
      return 400;
    case ApiErrorCode.UpstreamFailed:
      return 502;
    case ApiErrorCode.NotReady:
    case ApiErrorCode.ProviderNotConfigured:
      return 503;
    case ApiErrorCode.UpstreamTimeout:
      return 504;
    default:
      return assertNever(code, 'API error code');
  }
}
