import {
  GoogleGenerativeAIAbortError,
  GoogleGenerativeAIError,
  GoogleGenerativeAIFetchError,
} from '@google/generative-ai';
import { ProviderError } from '../errors/provider-error';
import { durationTextToMs } from '../errors/retry-after';
import { malformedResponseError, networkError, unknownError } from '../errors/unknown-error';

interface GoogleErrorDetail {
  '@type'?: string;
  retryDelay?: string;
  reason?: string;
}

const statusCodes: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The SDK message is "[GoogleGenerativeAI Error]: Error fetching from URL: [429 Too Many Requests] text [details]". */
function apiMessage(error: GoogleGenerativeAIFetchError): string {
  const afterStatus = /\[\d{3}[^\]]*\]\s*(.*)$/s.exec(error.message)?.[1] ?? error.message;
  return afterStatus.replace(/\s*\[\{.*$/s, '').trim() || error.message;
}

// The SDK replaces what `fetch` or the body reader threw with its own messages (the cause is
// dropped); both only fail on transport. Its stream reader reports unparsable or unfinished lines.
const sdkMessagePrefix = '[GoogleGenerativeAI Error]: ';
const transportMessages = ['Error fetching from ', 'Error reading from the stream'];
const unparsableMessages = ['Error parsing JSON response', 'Failed to parse stream'];

function sdkMessageStartsWith(error: GoogleGenerativeAIError, starts: readonly string[]): boolean {
  return starts.some((start) => error.message.startsWith(`${sdkMessagePrefix}${start}`));
}

/** Turns what the legacy Gemini SDK threw into the one `ProviderError`; undefined for an error of our own (see `unknownError`). */
export function mapGeminiError(error: unknown): ProviderError | undefined {
  if (error instanceof ProviderError) return error;
  if (error instanceof GoogleGenerativeAIAbortError) {
    // The SDK aborts its own fetch on timeout with the same error as a caller's abort. The retry loop
    // knows whether the caller's signal fired and reports that as an abort instead.
    return new ProviderError({
      provider: 'gemini',
      status: undefined,
      code: 'timeout',
      message: error.message,
      requestId: undefined,
      retryAfterMs: undefined,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof GoogleGenerativeAIFetchError) {
    const details = (error.errorDetails ?? []) as GoogleErrorDetail[];
    const retryInfo = details.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'));
    const reason = details.find((detail) => detail.reason)?.reason;
    return new ProviderError({
      provider: 'gemini',
      status: error.status,
      code: reason ?? (error.status !== undefined ? statusCodes[error.status] : undefined),
      message: apiMessage(error),
      requestId: undefined,
      retryAfterMs: retryInfo?.retryDelay ? durationTextToMs(retryInfo.retryDelay) : undefined,
      cause: error,
    });
  }
  if (error instanceof GoogleGenerativeAIError && sdkMessageStartsWith(error, transportMessages))
    return networkError('gemini', error);
  if (error instanceof GoogleGenerativeAIError && sdkMessageStartsWith(error, unparsableMessages))
    return malformedResponseError('gemini', error);
  return unknownError('gemini', error);
}
