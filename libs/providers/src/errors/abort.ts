import { ProviderError } from './provider-error';
import type { ProviderName } from '../types/result';

/** The error raised when the caller's signal aborts a call: never retried. */
export function abortedError(provider: ProviderName, cause?: unknown): ProviderError {
  return new ProviderError({
    provider,
    status: undefined,
    code: 'aborted',
    message: 'The request was aborted by the caller',
    requestId: undefined,
    retryAfterMs: undefined,
    retryable: false,
    cause,
  });
}
