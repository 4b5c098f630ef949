import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI } from '@google/generative-ai';
import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { executeChatCompletion, ProviderError, type ChatCompletionOptions, type ProviderName } from '../src';
import { collect, createClients, models, providerNames, useEmulator } from './support/emulator-clients';
import { waitFor } from './support/wait-for';

const fastRetry = { initialDelayMs: 1, maxDelayMs: 5, maxTotalWaitMs: 2_000 };

function options(
  provider: ProviderName,
  extra: Partial<ChatCompletionOptions> = {},
): ChatCompletionOptions & { stream?: false } {
  return {
    modelParams: { model: models[provider] },
    messages: [{ role: 'user', content: 'Hi' }],
    retry: fastRetry,
    ...extra,
  } as ChatCompletionOptions & {
    stream?: false;
  };
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw new Error(`expected a ProviderError, got ${String(error)}`);
  }
  throw new Error('expected the call to fail');
}

describe.each(providerNames)('%s faults', (provider) => {
  const { emulator, clients } = useEmulator();

  it.each([429, 500, 503])('retries %i and then succeeds; the SDK itself never retries', async (status) => {
    emulator().script(
      { kind: 'error', status, retryAfterSeconds: 0 },
      { kind: 'error', status },
      { kind: 'text', text: 'finally' },
    );
    const result = await executeChatCompletion(clients()[provider], options(provider));
    expect(result.text).toBe('finally');
    expect(result.attempts).toBe(3);
    expect(emulator().requests.filter((request) => request.provider === provider)).toHaveLength(3);
  });

  it('gives up after maxAttempts with a typed error carrying status, code, message and request id', async () => {
    emulator().script({ kind: 'error', status: 503, message: 'busy right now', times: 5 });
    const error = await rejection(
      executeChatCompletion(
        clients()[provider],
        options(provider, { retry: { ...fastRetry, maxAttempts: 2 } }),
      ),
    );
    expect(error).toMatchObject({ provider, status: 503, isRetryable: true });
    expect(error.message).toContain('busy right now');
    expect(error.code).toBeTruthy();
    if (provider !== 'gemini') expect(error.requestId).toBeTruthy();
    expect(emulator().requests).toHaveLength(2);
    // The error says how many attempts were made and carries the exact body that failed.
    expect(error.attempts).toBe(2);
    expect(error.request).toEqual(emulator().lastRequest()?.body);
  });

  it('does not retry a 400 and reports the provider message', async () => {
    emulator().script({ kind: 'error', status: 400, message: 'bad field x' });
    const error = await rejection(executeChatCompletion(clients()[provider], options(provider)));
    expect(error).toMatchObject({ provider, status: 400, isRetryable: false });
    expect(error.message).toContain('bad field x');
    expect(emulator().requests).toHaveLength(1);
  });

  it('honours retry-after from the server', async () => {
    // The wait the retry loop asks for is read off its budget decision, not off the clock: a
    // 1 s retry-after does not fit a 999 ms budget (the policy's own backoff, at most 5 ms, would)
    // and fits a 1000 ms one. That the loop then sleeps what it asked is with-retry.spec.ts's part.
    const retryAfter = { kind: 'error', status: 429, retryAfterSeconds: 1, retryDelay: '1s' } as const;
    emulator().script(retryAfter, { kind: 'text', text: 'never' });
    const error = await rejection(
      executeChatCompletion(
        clients()[provider],
        options(provider, { retry: { ...fastRetry, maxTotalWaitMs: 999 } }),
      ),
    );
    expect(error).toMatchObject({ status: 429, retryAfterMs: 1_000, attempts: 1 });
    expect(emulator().requests).toHaveLength(1);

    emulator().reset();
    emulator().script(retryAfter, { kind: 'text', text: 'ok' });
    const result = await executeChatCompletion(
      clients()[provider],
      options(provider, { retry: { ...fastRetry, maxTotalWaitMs: 1_000 } }),
    );
    expect(result).toMatchObject({ text: 'ok', attempts: 2 });
    expect(emulator().requests).toHaveLength(2);
  });

  it('does not wait for a retry-after longer than the total wait budget', async () => {
    emulator().script(
      { kind: 'error', status: 429, retryAfterSeconds: 30, retryDelay: '30s' },
      { kind: 'text', text: 'never' },
    );
    const error = await rejection(executeChatCompletion(clients()[provider], options(provider)));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 30_000 });
    expect(emulator().requests).toHaveLength(1);
  });

  it('an abort through the signal ends a hanging call at once, without retries', async () => {
    emulator().script({ kind: 'hang' });
    const controller = new AbortController();
    const pending = rejection(
      executeChatCompletion(clients()[provider], options(provider, { signal: controller.signal })),
    );
    // Abort once the call is hanging: its request has reached the emulator.
    await waitFor(
      () => (emulator().requests.length > 0 ? true : undefined),
      `the ${provider} request to reach the emulator`,
      { state: () => emulator().requests },
    );
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ code: 'aborted', isRetryable: false });
    expect(emulator().requests).toHaveLength(1);
  });

  it.each([false, true])(
    'sends nothing when the signal was aborted before the call (streamed: %s)',
    async (streamed) => {
      // "Sends nothing" is observed where a request would start, the fetch every SDK calls (clients
      // made after the spy, as some SDKs keep the fetch they find when built), rather than by
      // waiting a while for a request that should never arrive.
      const fetches = vi.spyOn(globalThis, 'fetch');
      try {
        const spied = createClients(emulator())[provider];
        const call = (signal: AbortSignal | undefined) =>
          streamed
            ? collect(executeChatCompletion(spied, { ...options(provider, { signal }), stream: true }))
            : executeChatCompletion(spied, options(provider, { signal }));
        const controller = new AbortController();
        controller.abort();
        const error = await rejection(call(controller.signal));
        expect(error).toMatchObject({ code: 'aborted', isRetryable: false, provider });
        expect(fetches).not.toHaveBeenCalled();
        expect(emulator().requests).toHaveLength(0);
        // The spy does see this client's requests: the same call without the abort goes out once.
        await call(undefined);
        expect(fetches).toHaveBeenCalledTimes(1);
        expect(emulator().requests).toHaveLength(1);
      } finally {
        fetches.mockRestore();
      }
    },
  );

  it('retries a stream that fails before its first chunk', async () => {
    emulator().script({ kind: 'error', status: 503 }, { kind: 'text', text: 'streamed fine' });
    const parts = await collect(
      executeChatCompletion(clients()[provider], { ...options(provider), stream: true }),
    );
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.result).toMatchObject({ text: 'streamed fine', attempts: 2 });
  });

  it.each([
    ['a cut connection', { kind: 'cut' as const, afterChunks: 4 }],
    ['a malformed chunk', { kind: 'malformed' as const, afterChunks: 4 }],
    ['an error event', { kind: 'error-event' as const, afterChunks: 4, status: 529 }],
  ])('never retries after output began: %s', async (_name, streamFault) => {
    emulator().script(
      { kind: 'text', text: 'abcdefghijklmnopqrstuvwxyz', chunkSize: 2, streamFault },
      { kind: 'text', text: 'second' },
    );
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const part of executeChatCompletion(clients()[provider], {
        ...options(provider),
        stream: true,
      })) {
        if (part.type === 'text-delta') seen.push(part.text);
      }
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ProviderError);
    expect(seen.join('')).not.toContain('second');
    expect(emulator().requests).toHaveLength(1);
  });
});

describe('a stream that goes silent', () => {
  const { emulator, clients } = useEmulator();

  it.each(providerNames)(
    '%s: ends with a timeout error after the idle limit, without retrying once output began',
    async (provider) => {
      emulator().script(
        {
          kind: 'text',
          text: 'abcdefghijklmnopqrstuvwxyz',
          chunkSize: 2,
          streamFault: { kind: 'stall', afterChunks: 5 },
        },
        { kind: 'text', text: 'never used' },
      );
      const seen: string[] = [];
      let failure: unknown;
      try {
        for await (const part of executeChatCompletion(clients()[provider], {
          ...options(provider),
          stream: true,
          streamIdleTimeoutMs: 300,
        })) {
          if (part.type === 'text-delta') seen.push(part.text);
        }
      } catch (error) {
        failure = error;
      }
      expect(failure).toMatchObject({ code: 'timeout', provider });
      expect(seen.length).toBeGreaterThan(0);
      expect(emulator().requests).toHaveLength(1);
    },
  );

  it('is retried when the provider stays silent before the first chunk', async () => {
    emulator().script({ kind: 'text', text: 'late', delayMs: 1_000 }, { kind: 'text', text: 'on time' });
    const parts = await collect(
      executeChatCompletion(clients().openai, {
        ...options('openai'),
        stream: true,
        streamIdleTimeoutMs: 300,
      }),
    );
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.result).toMatchObject({ text: 'on time', attempts: 2 });
  });
});

describe('SDK-level timeouts are retried by the single loop', () => {
  const { emulator } = useEmulator();

  it.each(providerNames)('%s: a hung first attempt times out and the second succeeds', async (provider) => {
    const clients = {
      openai: new OpenAI({ apiKey: 'k', baseURL: emulator().openaiBaseUrl, timeout: 150 }),
      anthropic: new Anthropic({ apiKey: 'k', baseURL: emulator().anthropicBaseUrl, timeout: 150 }),
      gemini: new GoogleGenerativeAI('k').getGenerativeModel(
        { model: models.gemini },
        { baseUrl: emulator().geminiBaseUrl, apiVersion: 'v1beta', timeout: 150 },
      ),
    };
    emulator().script({ kind: 'hang' }, { kind: 'text', text: 'after timeout' });
    const result = await executeChatCompletion(clients[provider], options(provider));
    expect(result).toMatchObject({ text: 'after timeout', attempts: 2 });
  });
});

describe('Anthropic 529 overloaded', () => {
  const { emulator, clients } = useEmulator();

  it('is retryable, with the overloaded_error code', async () => {
    emulator().script({ kind: 'error', status: 529, times: 3 });
    const error = await rejection(executeChatCompletion(clients().anthropic, options('anthropic')));
    expect(error).toMatchObject({ status: 529, code: 'overloaded_error', isRetryable: true });
    expect(emulator().requests).toHaveLength(3);
  });
});
