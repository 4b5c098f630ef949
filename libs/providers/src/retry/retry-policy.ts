/** The one retry policy of the stack (SDK retries are turned off on every call). */
export interface RetryPolicy {
  /** Total attempts, the first included. */
  maxAttempts: number;
  /** Upper bound on the sum of all waits between attempts. */
  maxTotalWaitMs: number;
  /** First backoff delay; doubles per attempt. */
  initialDelayMs: number;
  /** Cap of one backoff delay (a longer `retry-after` is still honoured up to `maxTotalWaitMs`). */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 3,
  maxTotalWaitMs: 30_000,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
};
