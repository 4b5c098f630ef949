import OpenAI from 'openai';
import { abortedError } from '../errors/abort';
import { ProviderError } from '../errors/provider-error';
import { retryAfterMsFromHeaders } from '../errors/retry-after';
import { unknownError } from '../errors/unknown-error';

/** Turns what the OpenAI SDK threw into the one `ProviderError`; undefined for an error of our own (see `unknownError`). */
export function mapOpenAIError(error: unknown): ProviderError | undefined {
  if (error instanceof ProviderError) return error;
  if (error instanceof OpenAI.APIUserAbortError) return abortedError('openai', error);
  if (error instanceof OpenAI.APIConnectionError) {
    return new ProviderError({
      provider: 'openai',
      status: undefined,
      code: error instanceof OpenAI.APIConnectionTimeoutError ? 'timeout' : 'connection_error',
      message: error.message,
      requestId: undefined,
      retryAfterMs: undefined,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError) {
    const body = error.error as { message?: unknown } | undefined;
    // An error sent inside a stream has no status: retryable unless it blames the request.
    const inStream = error.status === undefined;
    return new ProviderError({
      provider: 'openai',
      status: error.status,
      code: error.code ?? error.type ?? undefined,
      message: typeof body?.message === 'string' ? body.message : error.message,
      requestId: error.requestID ?? undefined,
      retryAfterMs: retryAfterMsFromHeaders(error.headers),
      ...(inStream && { retryable: error.type !== 'invalid_request_error' }),
      cause: error,
    });
  }
  return unknownError('openai', error);
}
