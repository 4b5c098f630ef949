import Anthropic from '@anthropic-ai/sdk';
import { abortedError } from '../errors/abort';
import { ProviderError } from '../errors/provider-error';
import { retryAfterMsFromHeaders } from '../errors/retry-after';
import { unknownError } from '../errors/unknown-error';

/** Turns what the Anthropic SDK threw into the one `ProviderError`; undefined for an error of our own (see `unknownError`). */
export function mapAnthropicError(error: unknown): ProviderError | undefined {
  if (error instanceof ProviderError) return error;
  if (error instanceof Anthropic.APIUserAbortError) return abortedError('anthropic', error);
  if (error instanceof Anthropic.APIConnectionError) {
    return new ProviderError({
      provider: 'anthropic',
      status: undefined,
      code: error instanceof Anthropic.APIConnectionTimeoutError ? 'timeout' : 'connection_error',
      message: error.message,
      requestId: undefined,
      retryAfterMs: undefined,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof Anthropic.APIError) {
    // An error event inside a stream has no status; `overloaded_error` there is as retryable as a 529.
    const overloadedInStream = error.status === undefined && error.type === 'overloaded_error';
    return new ProviderError({
      provider: 'anthropic',
      status: error.status ?? (overloadedInStream ? 529 : undefined),
      code: error.type ?? undefined,
      message: error.apiMessage ?? error.message,
      requestId: error.requestID ?? undefined,
      retryAfterMs: retryAfterMsFromHeaders(error.headers),
      cause: error,
    });
  }
  return unknownError('anthropic', error);
}
