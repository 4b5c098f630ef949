import { ApiError, ApiErrorCode } from '../errors/api-error';
import { assertNever } from '../errors/assert-never';
import { toApiError } from '../errors/to-api-error';
import type { ModelFailure } from './model-failure';

/**
 * A model failure as AgentDesk's own error (`{ error: { code, message, requestId } }`): routing
 * and schema problems are the caller's or the operator's to fix; everything the provider did is a
 * 502 (504 for a timeout). `internal` is whatever else was thrown, mapped the usual way.
 */
export function modelFailureToApiError(failure: ModelFailure): ApiError {
  switch (failure.kind) {
    case 'unknown-model':
      return new ApiError(ApiErrorCode.UnknownModel, failure.message);
    case 'provider-not-configured':
      return new ApiError(ApiErrorCode.ProviderNotConfigured, failure.message);
    case 'invalid-schema':
      return new ApiError(ApiErrorCode.ValidationFailed, `body.responseFormat.schema: ${failure.message}`);
    case 'timeout':
      return new ApiError(ApiErrorCode.UpstreamTimeout, upstreamMessage(failure));
    case 'invalid-request':
    case 'rate-limited':
    case 'authentication':
    case 'upstream-unavailable':
    case 'output-invalid':
    case 'context-budget-exceeded':
    case 'cancelled':
      return new ApiError(ApiErrorCode.UpstreamFailed, upstreamMessage(failure));
    case 'internal':
      return toApiError(failure.error);
    default:
      return assertNever(failure, 'model failure');
  }
}

function upstreamMessage(failure: ModelFailure): string {
  return 'upstream' in failure && failure.upstream !== undefined
    ? `${failure.upstream.provider}: ${failure.message}`
    : failure.message;
}
