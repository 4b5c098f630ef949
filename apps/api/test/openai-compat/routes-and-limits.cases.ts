import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../support/engines';
import { createLocalUser, issueUserKey } from '../support/fixtures';
import { startTestApi, type TestApi } from '../support/test-api';
import { startUpstreamProbe, type UpstreamProbe } from './upstream-probe';

const rateLimit = 3;

/** Within `milliseconds`, or a clear failure instead of a hung test. */
function within<T>(promise: Promise<T>, milliseconds: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: not within ${milliseconds} ms`)), milliseconds),
    ),
  ]);
}

/**
 * An API with extra model routes (one to a probe upstream that never finishes) and a low rate
 * limit: what `/v1/models` lists, cancellation on disconnect, and the guard's 429.
 */
export function describeRoutesAndLimits(engine: Engine): void {
  describe('configured routes, disconnects and the rate limit', () => {
    let test: TestApi;
    let probe: UpstreamProbe;
    let baseURL: string;
    const newKey = async () => {
      const user = await createLocalUser(
        test.api.repositories,
        `caller-${Math.random().toString(36).slice(2)}`,
      );
      return (await issueUserKey(test.api.repositories, user)).key;
    };
    const client = (apiKey: string) => new OpenAI({ apiKey, baseURL, maxRetries: 0 });

    beforeAll(async () => {
      probe = await startUpstreamProbe();
      test = await startTestApi(engine, {
        AGENTDESK_RATE_LIMIT_MAX: String(rateLimit),
        GEMINI_API_KEY: '',
        AGENTDESK_MODEL_ROUTES: JSON.stringify([
          { pattern: 'probe-model', provider: 'openai', baseUrl: probe.baseUrl },
          { pattern: 'local-*', provider: 'openai', baseUrl: probe.baseUrl },
          // No Gemini key on this server: the route's provider is not configured.
          { pattern: 'keyless-model', provider: 'gemini' },
        ]),
      });
      baseURL = `${await test.api.listen()}/v1`;
    });
    afterAll(async () => {
      await test?.close();
      await probe?.close();
    });

    it('lists the default model and exact routes it can serve; wildcards and keyless routes are not invented', async () => {
      const models = await client(await newKey()).models.list();
      expect(models.data).toEqual([
        { id: 'gpt-test', object: 'model', created: 0, owned_by: 'openai' },
        { id: 'probe-model', object: 'model', created: 0, owned_by: 'openai' },
      ]);
    });

    it('cancels the upstream call when the client disconnects (non-streaming)', async () => {
      const abort = new AbortController();
      const pending = client(await newKey())
        .chat.completions.create(
          { model: 'probe-model', messages: [{ role: 'user', content: 'hang' }] },
          { signal: abort.signal },
        )
        .catch((caught: unknown) => caught);
      const upstream = await within(probe.nextRequest(), 5_000, 'the upstream request');
      expect(upstream.body['model']).toBe('probe-model');
      abort.abort();
      expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
      await within(upstream.closed, 5_000, 'the upstream connection closing');
    });

    it('cancels the upstream stream when the client stops reading', async () => {
      const stream = await client(await newKey()).chat.completions.create({
        model: 'local-llama',
        messages: [{ role: 'user', content: 'stream and stall' }],
        stream: true,
      });
      const upstream = await within(probe.nextRequest(), 5_000, 'the upstream request');
      let text = '';
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        // Leaving the loop aborts the SDK's request.
        if (text !== '') break;
      }
      expect(text).toBe('first words');
      await within(upstream.closed, 5_000, 'the upstream connection closing');
    });

    it('answers the guard’s rate limit with RateLimitError, Retry-After and OpenAI’s body', async () => {
      const key = await newKey();
      for (let index = 0; index < rateLimit; index += 1) await client(key).models.list();
      const error = await client(key)
        .models.list()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      const limited = error as InstanceType<typeof OpenAI.RateLimitError>;
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.error).toEqual({
        message: expect.stringContaining('Rate limit'),
        type: 'rate_limit_error',
        param: null,
        code: 'rate_limit_exceeded',
      });
    });
  });
}
