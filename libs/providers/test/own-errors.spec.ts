import { GoogleGenerativeAI, type SafetySetting } from '@google/generative-ai';
import { describe, expect, it } from 'vitest';
import {
  executeChatCompletion,
  type SupportedClient,
  MAX_SCHEMA_DEPTH,
  ProviderError,
  SchemaLoweringError,
  type ChatCompletionOptions,
  type JsonSchema,
  type ProviderName,
} from '../src';
import { collect, models, providerNames, useEmulator } from './support/emulator-clients';

const fastRetry = { initialDelayMs: 1, maxDelayMs: 5, maxTotalWaitMs: 2_000 };

/**
 * A value whose serialization throws, as a bug of ours inside the attempt would: the SDK serializes
 * the request body inside the retried call. Counts how often it was serialized.
 */
function throwingValue(thrown: Error): { value: object; serializations: () => number } {
  let serializations = 0;
  const value = {
    type: 'object',
    properties: { city: { type: 'string' } },
    toJSON() {
      serializations += 1;
      throw thrown;
    },
  };
  return { value, serializations: () => serializations };
}

function nested(depth: number): JsonSchema {
  let schema: JsonSchema = { type: 'string' };
  for (let level = 0; level < depth; level += 1) schema = { type: 'array', items: schema };
  return schema;
}

function options(provider: ProviderName, extra: Partial<ChatCompletionOptions>): ChatCompletionOptions {
  return {
    modelParams: { model: models[provider] },
    messages: [{ role: 'user', content: 'Weather?' }],
    retry: fastRetry,
    ...extra,
  };
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe.each(providerNames)('%s: our own exceptions are not provider failures', (provider) => {
  const { emulator, clients } = useEmulator();

  it.each([
    ['a RangeError (stack overflow)', () => new RangeError('Maximum call stack size exceeded')],
    ['a TypeError (a bug)', () => new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a plain Error', () => new Error('invariant broken')],
  ])('%s surfaces unchanged after one attempt, non-streaming and streaming', async (_name, make) => {
    for (const stream of [false, true]) {
      emulator().reset();
      const thrown = make();
      const { value, serializations } = throwingValue(thrown);
      // OpenAI and Anthropic send tool parameters as given; Gemini's are lowered (copied), so the
      // value rides in the client's own safety settings, which the request carries unchanged.
      const client: SupportedClient =
        provider === 'gemini'
          ? new GoogleGenerativeAI('gemini-key').getGenerativeModel(
              { model: models.gemini, safetySettings: [value as unknown as SafetySetting] },
              { baseUrl: emulator().geminiBaseUrl, apiVersion: 'v1beta' },
            )
          : clients()[provider];
      const call = options(
        provider,
        provider === 'gemini' ? {} : { tools: [{ name: 'weather', parameters: value as JsonSchema }] },
      );
      const failure = await failureOf(async () =>
        stream
          ? collect(executeChatCompletion(client, { ...call, stream: true }))
          : executeChatCompletion(client, { ...call, stream: false }),
      );
      expect(failure).toBe(thrown);
      expect(failure).not.toBeInstanceOf(ProviderError);
      expect(serializations()).toBe(1);
      expect(emulator().requests).toHaveLength(0);
    }
  });

  it('still retries a genuine provider failure (503) with the same tool schema shape', async () => {
    emulator().script({ kind: 'error', status: 503 }, { kind: 'text', text: 'sunny' });
    const result = await executeChatCompletion(clients()[provider], {
      ...options(provider, {
        tools: [
          { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
      }),
      stream: false,
    });
    expect(result.attempts).toBe(2);
    expect(emulator().requests).toHaveLength(2);
  });

  it.each([
    ['tool parameters', (schema: JsonSchema) => ({ tools: [{ name: 'deep', parameters: schema }] })],
    [
      'a response_format schema',
      (schema: JsonSchema) => ({
        responseFormat: { type: 'json_schema' as const, json_schema: { name: 'deep', schema, strict: true } },
      }),
    ],
    [
      'a flat response_format schema',
      (schema: JsonSchema) => ({ responseFormat: { type: 'json_schema' as const, schema } }),
    ],
  ])('refuses %s nested 5,000 levels before any request, naming the limit', async (_name, place) => {
    const failure = await failureOf(async () =>
      executeChatCompletion(clients()[provider], {
        ...options(provider, place(nested(5_000))),
        stream: false,
      }),
    );
    expect(failure).toBeInstanceOf(SchemaLoweringError);
    expect(failure).toMatchObject({ code: 'schema-too-large' });
    expect((failure as Error).message).toContain(`at most ${MAX_SCHEMA_DEPTH} levels`);
    expect(emulator().requests).toHaveLength(0);
  });
});
