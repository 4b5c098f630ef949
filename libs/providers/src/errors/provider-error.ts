import type { ProviderName } from '../types/result';

const retryableStatuses = new Set([408, 409, 429, 529]);

/** True for statuses worth retrying: 408, 409, 429, 5xx and Anthropic's 529. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status !== undefined && (retryableStatuses.has(status) || (status >= 500 && status <= 599));
}

export interface ProviderErrorFields {
  provider: ProviderName;
  /** HTTP status; undefined for connection failures, timeouts and errors sent inside a stream. */
  status: number | undefined;
  /** The provider's error code or type, e.g. `rate_limit_exceeded`, `overloaded_error`, `RESOURCE_EXHAUSTED`. */
  code: string | undefined;
  message: string;
  requestId: string | undefined;
  /** Server-requested wait before retrying, from `retry-after(-ms)` or Gemini's RetryInfo. */
  retryAfterMs: number | undefined;
  /** Overrides the status rule: connection errors and timeouts are retryable, aborts are not. */
  retryable?: boolean;
  cause?: unknown;
}

/** The one error type every provider failure becomes. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly provider: ProviderName;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly isRetryable: boolean;
  /** Attempts made before giving up (set by the retry loop). */
  attempts = 1;
  /** The provider-native request body that failed (set by `executeChatCompletion`), for debugging. */
  request: unknown = undefined;

  constructor(fields: ProviderErrorFields) {
    super(fields.message, { cause: fields.cause });
    this.provider = fields.provider;
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.retryAfterMs = fields.retryAfterMs;
    this.isRetryable = fields.retryable ?? isRetryableStatus(fields.status);
  }
}
