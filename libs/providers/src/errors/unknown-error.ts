import { abortedError } from './abort';
import { ProviderError } from './provider-error';
import type { ProviderName } from '../types/result';

// Codes Node and undici put on transport failures: errno codes (ECONNRESET, ETIMEDOUT, EAI_AGAIN…),
// undici's socket and body errors (UND_ERR_SOCKET behind "terminated" and "fetch failed"), TLS,
// HTTP/2 and HTTP parser errors, a stream closed early. Never codes of programming errors
// (ERR_INVALID_ARG_TYPE and the like).
const transportCodePattern =
  /^(?:E(?!RR_)[A-Z0-9_]+|UND_ERR_[A-Z0-9_]+|ERR_SSL_[A-Z0-9_]+|ERR_TLS_[A-Z0-9_]+|ERR_HTTP2_[A-Z0-9_]+|HPE_[A-Z0-9_]+|ERR_STREAM_PREMATURE_CLOSE)$/;

// A cause chain longer than this is not a transport error's.
const maximumCauseDepth = 8;

/** True when the error, or one of its causes, carries a transport failure code. */
export function isTransportFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < maximumCauseDepth && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && transportCodePattern.test(code)) return true;
    current = cause;
  }
  return false;
}

/** A transport failure (connection reset, DNS, TLS, a cut stream): retryable. */
export function networkError(provider: ProviderName, error: unknown): ProviderError {
  return new ProviderError({
    provider,
    status: undefined,
    code: 'network_error',
    message: error instanceof Error ? error.message : String(error),
    requestId: undefined,
    retryAfterMs: undefined,
    retryable: true,
    cause: error,
  });
}

/** Bytes from the provider that do not parse (e.g. a malformed stream chunk): the provider's fault, retryable. */
export function malformedResponseError(provider: ProviderName, error: unknown): ProviderError {
  return new ProviderError({
    provider,
    status: undefined,
    code: 'malformed_response',
    message: error instanceof Error ? error.message : String(error),
    requestId: undefined,
    retryAfterMs: undefined,
    retryable: true,
    cause: error,
  });
}

/**
 * A failure that is not one of the SDK's API errors: an abort, a transport failure, or a provider
 * body the SDK could not parse (`SyntaxError` from its JSON parsing). Anything else — a
 * `RangeError` from a stack overflow, a `TypeError` from a bug, any exception of our own code — is
 * not the provider's and returns undefined: the caller rethrows it unchanged, never retries it and
 * never reports it as a provider or network failure.
 */
export function unknownError(provider: ProviderName, error: unknown): ProviderError | undefined {
  if (error instanceof Error && error.name === 'AbortError') return abortedError(provider, error);
  if (isTransportFailure(error)) return networkError(provider, error);
  if (error instanceof SyntaxError) return malformedResponseError(provider, error);
  return undefined;
}
