import { abortedError } from './abort';
import { ProviderError } from './provider-error';
import type { ProviderName } from '../types/result';

/** A failure that is not an API error (e.g. a truncated stream): retryable only before output began. */
export function unknownError(provider: ProviderName, error: unknown): ProviderError {
  const message = error instanceof Error ? error.message : String(error);
  const aborted = error instanceof Error && error.name === 'AbortError';
  if (aborted) return abortedError(provider, error);
  return new ProviderError({
    provider,
    status: undefined,
    // A body that does not parse (e.g. a malformed stream chunk) is the provider's fault, not the network's.
    code:
      error instanceof SyntaxError || /pars(e|ing)/i.test(message) ? 'malformed_response' : 'network_error',
    message,
    requestId: undefined,
    retryAfterMs: undefined,
    retryable: true,
    cause: error,
  });
}
