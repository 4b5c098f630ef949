import { abortedError } from '../errors/abort';
import type { ProviderError } from '../errors/provider-error';
import type { ProviderName } from '../types/result';
import type { RetryPolicy } from './retry-policy';

export interface RetryContext {
  /** Named in the error of a call the caller aborted before an attempt. */
  provider: ProviderName;
  policy: RetryPolicy;
  signal: AbortSignal | undefined;
  /** The provider's failure; undefined for an error of our own, which leaves the loop at once, unchanged. */
  toProviderError(error: unknown): ProviderError | undefined;
  /** Injectable for deterministic tests of the jitter. */
  random?: () => number;
  /** Injectable for tests of the waits: how the loop waits between attempts (default: a timer an abort ends). */
  sleep?: (milliseconds: number, signal: AbortSignal | undefined) => Promise<void>;
}

export interface Retried<T> {
  value: T;
  attempts: number;
}

/** Exponential backoff with up to 25% jitter subtracted, so clients that failed together spread out. */
export function backoffDelayMs(policy: RetryPolicy, failedAttempts: number, random: () => number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (failedAttempts - 1));
  return exponential * (1 - 0.25 * random());
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The single retry loop of the stack. Retries only retryable errors, honours the server's
 * `retry-after` (as long as it fits the total wait budget), and stops at `maxAttempts`.
 * Every provider failure leaves as a `ProviderError`; an exception of our own code (which
 * `toProviderError` does not claim) leaves after its one attempt, unchanged.
 */
export async function withRetry<T>(
  run: (attempt: number) => Promise<T>,
  context: RetryContext,
): Promise<Retried<T>> {
  const random = context.random ?? Math.random;
  const wait = context.sleep ?? sleep;
  let waitedMs = 0;
  for (let attempt = 1; ; attempt++) {
    // Nothing goes out once the caller has given up. The SDKs are not all trusted with that: the
    // Gemini SDK only listens for an abort that comes after its call starts, and sends the request
    // anyway when the signal was already aborted (a summary whose time ran out while it was prepared).
    if (context.signal?.aborted) throw abortedError(context.provider, context.signal.reason);
    try {
      return { value: await run(attempt), attempts: attempt };
    } catch (thrown) {
      const error = context.toProviderError(thrown);
      if (error === undefined) throw thrown;
      error.attempts = attempt;
      if (context.signal?.aborted)
        throw error.code === 'aborted' ? error : abortedError(error.provider, thrown);
      if (!error.isRetryable || attempt >= context.policy.maxAttempts) throw error;
      const delay = error.retryAfterMs ?? backoffDelayMs(context.policy, attempt, random);
      if (waitedMs + delay > context.policy.maxTotalWaitMs) throw error;
      try {
        await wait(delay, context.signal);
      } catch {
        throw abortedError(error.provider, thrown);
      }
      waitedMs += delay;
    }
  }
}
