import { describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../errors/provider-error';
import { backoffDelayMs, withRetry } from './with-retry';
import { defaultRetryPolicy, type RetryPolicy } from './retry-policy';

const fastPolicy: RetryPolicy = { maxAttempts: 4, maxTotalWaitMs: 1_000, initialDelayMs: 1, maxDelayMs: 4 };

function failure(
  status: number | undefined,
  extra: Partial<ConstructorParameters<typeof ProviderError>[0]> = {},
) {
  return new ProviderError({
    provider: 'openai',
    status,
    code: undefined,
    message: `failed with ${status}`,
    requestId: undefined,
    retryAfterMs: undefined,
    ...extra,
  });
}

const asProviderError = (error: unknown) =>
  error instanceof ProviderError ? error : failure(undefined, { retryable: false });

/** A sleep that records the waits the loop asks for and returns at once. */
function recordingSleep() {
  const requested: number[] = [];
  return {
    requested,
    sleep: async (milliseconds: number) => {
      requested.push(milliseconds);
    },
  };
}

describe('withRetry', () => {
  it.each([408, 409, 429, 500, 503, 529])('retries status %i until it succeeds', async (status) => {
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw failure(status);
        return 'ok';
      },
      { provider: 'openai', policy: fastPolicy, signal: undefined, toProviderError: asProviderError },
    );
    expect(result).toEqual({ value: 'ok', attempts: 3 });
  });

  it.each([400, 401, 403, 404, 422])('never retries status %i', async (status) => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw failure(status);
        },
        { provider: 'openai', policy: fastPolicy, signal: undefined, toProviderError: asProviderError },
      ),
    ).rejects.toMatchObject({ status });
    expect(calls).toBe(1);
  });

  it('lets an exception of our own leave after one attempt, unchanged and never retried', async () => {
    let calls = 0;
    const bug = new RangeError('Maximum call stack size exceeded');
    await expect(
      withRetry(
        async () => {
          calls++;
          throw bug;
        },
        // As the adapters' mappers do: an error that is not the provider's is not claimed.
        { provider: 'openai', policy: fastPolicy, signal: undefined, toProviderError: () => undefined },
      ),
    ).rejects.toBe(bug);
    expect(calls).toBe(1);
  });

  it('stops at maxAttempts and surfaces the last error', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw failure(503, { message: `attempt ${calls}` });
        },
        { provider: 'openai', policy: fastPolicy, signal: undefined, toProviderError: asProviderError },
      ),
    ).rejects.toThrow('attempt 4');
    expect(calls).toBe(4);
  });

  it('gives up instead of waiting past the total wait budget, even when retry-after asks for it', async () => {
    let calls = 0;
    const waits = recordingSleep();
    await expect(
      withRetry(
        async () => {
          calls++;
          throw failure(429, { retryAfterMs: 5_000 });
        },
        {
          provider: 'openai',
          policy: fastPolicy,
          signal: undefined,
          toProviderError: asProviderError,
          sleep: waits.sleep,
        },
      ),
    ).rejects.toMatchObject({ status: 429 });
    expect(calls).toBe(1);
    expect(waits.requested).toEqual([]);
  });

  it('waits for retry-after when it fits the budget', async () => {
    let calls = 0;
    const waits = recordingSleep();
    const result = await withRetry(
      async () => {
        calls++;
        if (calls === 1) throw failure(429, { retryAfterMs: 60 });
        return 'ok';
      },
      {
        provider: 'openai',
        policy: fastPolicy,
        signal: undefined,
        toProviderError: asProviderError,
        sleep: waits.sleep,
      },
    );
    expect(result).toEqual({ value: 'ok', attempts: 2 });
    // The server's retry-after, not the policy's backoff (at most 4 ms here).
    expect(waits.requested).toEqual([60]);
  });

  it('really waits the delay it asks for (the default sleep)', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const pending = withRetry(
        async () => {
          calls++;
          if (calls === 1) throw failure(429, { retryAfterMs: 60 });
          return 'ok';
        },
        { provider: 'openai', policy: fastPolicy, signal: undefined, toProviderError: asProviderError },
      );
      await vi.advanceTimersByTimeAsync(59);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toBe(2);
      await expect(pending).resolves.toEqual({ value: 'ok', attempts: 2 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('an abort during the backoff wait ends the loop at once', async () => {
    const controller = new AbortController();
    const policy = { ...fastPolicy, initialDelayMs: 10_000, maxDelayMs: 10_000, maxTotalWaitMs: 60_000 };
    const pending = withRetry(
      async () => {
        setTimeout(() => controller.abort(), 5);
        throw failure(503);
      },
      { provider: 'openai', policy, signal: controller.signal, toProviderError: asProviderError },
    );
    await expect(pending).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('backoffDelayMs', () => {
  it('doubles per attempt, is capped, and jitter only ever shortens the wait by up to 25%', () => {
    expect(backoffDelayMs(defaultRetryPolicy, 1, () => 0)).toBe(500);
    expect(backoffDelayMs(defaultRetryPolicy, 2, () => 0)).toBe(1_000);
    expect(backoffDelayMs(defaultRetryPolicy, 10, () => 0)).toBe(8_000);
    expect(backoffDelayMs(defaultRetryPolicy, 1, () => 1)).toBe(375);
  });
});
