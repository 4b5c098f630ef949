import {
  GoogleGenerativeAIAbortError,
  GoogleGenerativeAIError,
  GoogleGenerativeAIFetchError,
  GoogleGenerativeAIResponseError,
  SchemaType,
  type FunctionDeclarationsTool,
  type GenerationConfig,
  type ResponseSchema,
} from '@google/generative-ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultReplyText, startProviderEmulator, type ProviderEmulator } from '../src/index';
import { geminiModel, postJson, rejectionOf, schemaErrors } from './helpers';

let emulator: ProviderEmulator;

beforeAll(async () => {
  emulator = await startProviderEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** Config fields the legacy SDK passes through but does not type. */
type ExtendedConfig = GenerationConfig & { responseJsonSchema?: unknown };

function fetchError(error: unknown): GoogleGenerativeAIFetchError {
  expect(error).toBeInstanceOf(GoogleGenerativeAIFetchError);
  return error as GoogleGenerativeAIFetchError;
}

describe('Gemini generateContent: answers', () => {
  it('returns text with usage metadata and records the request', async () => {
    emulator.script({
      kind: 'text',
      text: 'Hello there',
      usage: { inputTokens: 8, outputTokens: 22, reasoningTokens: 18 },
    });
    const { response } = await geminiModel(emulator, { systemInstruction: 'Be terse' }).generateContent('hi');
    expect(response.text()).toBe('Hello there');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata).toEqual({
      promptTokenCount: 8,
      candidatesTokenCount: 4,
      thoughtsTokenCount: 18,
      totalTokenCount: 30,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 8 }],
    });
    const recorded = emulator.lastRequest('gemini');
    expect(recorded?.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(recorded?.model).toBe('gemini-test');
    expect(recorded?.headers['x-goog-api-key']).toBe('gemini-key');
    expect(recorded?.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  it('answers unscripted requests with the default text, also under /v1', async () => {
    const { response } = await geminiModel(emulator, {}, { apiVersion: 'v1' }).generateContent('hi');
    expect(response.text()).toBe(defaultReplyText);
    expect(emulator.lastRequest()?.path).toBe('/v1/models/gemini-test:generateContent');
  });

  it('maps finish reasons and cached tokens', async () => {
    emulator.script({
      kind: 'text',
      text: 'cut',
      finishReason: 'length',
      usage: { inputTokens: 50, cachedInputTokens: 20, outputTokens: 3 },
    });
    const { response } = await geminiModel(emulator).generateContent('hi');
    expect(response.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(response.usageMetadata?.cachedContentTokenCount).toBe(20);
    expect(response.usageMetadata?.promptTokenCount).toBe(50);
  });

  it('sends a refusal as a SAFETY candidate that text() refuses to read', async () => {
    emulator.script({ kind: 'refusal', refusal: 'Blocked for safety.' });
    const { response } = await geminiModel(emulator).generateContent('hi');
    expect(response.candidates?.[0]?.finishReason).toBe('SAFETY');
    expect(response.candidates?.[0]?.finishMessage).toBe('Blocked for safety.');
    expect(() => response.text()).toThrow(GoogleGenerativeAIResponseError);
  });

  it('streams text chunks with full usage only on the last chunk, and aggregates them', async () => {
    emulator.script({
      kind: 'text',
      text: 'Hello streaming world',
      chunkSize: 6,
      usage: { inputTokens: 8, outputTokens: 6 },
    });
    const result = await geminiModel(emulator).generateContentStream('hi');
    const chunks = await collect(result.stream);
    expect(chunks.map((chunk) => chunk.text())).toEqual(['Hello ', 'stream', 'ing wo', 'rld']);
    expect(
      chunks.slice(0, -1).every((chunk) => chunk.usageMetadata?.candidatesTokenCount === undefined),
    ).toBe(true);
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates?.[0]?.finishReason === undefined)).toBe(
      true,
    );
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({
      promptTokenCount: 8,
      candidatesTokenCount: 6,
      totalTokenCount: 14,
    });
    const aggregated = await result.response;
    expect(aggregated.text()).toBe('Hello streaming world');
    expect(aggregated.candidates?.[0]?.finishReason).toBe('STOP');
    expect(aggregated.usageMetadata?.totalTokenCount).toBe(14);
    expect(emulator.lastRequest()?.query).toEqual({ alt: 'sse' });
  });

  it('frames SSE exactly as data: <one-line JSON> plus a blank line, with no [DONE]', async () => {
    const response = await postJson(
      `${emulator.geminiBaseUrl}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`,
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      { 'x-goog-api-key': 'k' },
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const body = await response.text();
    expect(body).toMatch(/^(data: [^\n]+\n\n)+$/);
    expect(body).not.toContain('[DONE]');
    expect(body).not.toContain('event:');
  });

  it('streams a JSON array when alt=sse is absent', async () => {
    emulator.script({ kind: 'text', text: 'abcdef', chunkSize: 3 });
    const response = await postJson(
      `${emulator.geminiBaseUrl}/v1beta/models/gemini-test:streamGenerateContent?key=k`,
      { contents: [{ parts: [{ text: 'hi' }] }] },
    );
    const chunks = (await response.json()) as Array<{
      candidates: Array<{ content: { parts: Array<{ text: string }> } }>;
    }>;
    expect(chunks.map((chunk) => chunk.candidates[0]?.content.parts[0]?.text)).toEqual(['abc', 'def']);
  });
});

describe('Gemini function calls', () => {
  const tools: FunctionDeclarationsTool[] = [
    {
      functionDeclarations: [
        {
          name: 'get_weather',
          parameters: { type: SchemaType.OBJECT, properties: { city: { type: SchemaType.STRING } } },
        },
      ],
    },
  ];

  it('returns functionCall parts', async () => {
    emulator.script({
      kind: 'tool-calls',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_weather', arguments: { city: 'Rome' } },
      ],
    });
    const { response } = await geminiModel(emulator, { tools }).generateContent('weather?');
    expect(response.functionCalls()).toEqual([
      { name: 'get_weather', args: { city: 'Paris' } },
      { name: 'get_weather', args: { city: 'Rome' } },
    ]);
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
  });

  it('streams text then function calls, aggregated by the SDK', async () => {
    emulator.script({
      kind: 'tool-calls',
      text: 'Checking the weather.',
      chunkSize: 8,
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Oslo' } },
        { name: 'get_weather', arguments: { city: 'Bergen' } },
      ],
    });
    const result = await geminiModel(emulator, { tools }).generateContentStream('weather?');
    const chunks = await collect(result.stream);
    expect(chunks.at(-1)?.functionCalls()).toEqual([{ name: 'get_weather', args: { city: 'Bergen' } }]);
    const aggregated = await result.response;
    expect(aggregated.text()).toBe('Checking the weather.');
    expect(aggregated.functionCalls()).toEqual([
      { name: 'get_weather', args: { city: 'Oslo' } },
      { name: 'get_weather', args: { city: 'Bergen' } },
    ]);
  });

  it('accepts a function response that follows the matching call', async () => {
    const { response } = await geminiModel(emulator).generateContent({
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { sky: 'clear' } } }] },
      ],
    });
    expect(response.text()).toBe('Here is what the tool result says: get_weather returned {"sky":"clear"}');
  });
});

describe('Gemini JSON output', () => {
  const responseSchema: ResponseSchema = {
    type: SchemaType.OBJECT,
    properties: {
      name: { type: SchemaType.STRING },
      mood: { type: SchemaType.STRING, format: 'enum', enum: ['happy', 'sad'] },
      score: { type: SchemaType.NUMBER, nullable: true },
      tags: { type: SchemaType.ARRAY, items: { type: SchemaType.STRING }, minItems: 2 },
    },
    required: ['name', 'mood', 'tags'],
  };

  it('generates an instance of responseSchema', async () => {
    emulator.script({ kind: 'json' });
    const { response } = await geminiModel(emulator, {
      generationConfig: { responseMimeType: 'application/json', responseSchema },
    }).generateContent('hi');
    const value = JSON.parse(response.text()) as Record<string, unknown>;
    expect(value).toMatchObject({ name: 'example', mood: 'happy' });
    expect((value.tags as unknown[]).length).toBe(2);
  });

  it('generates an instance of responseJsonSchema, streamed', async () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string', format: 'uuid' }, count: { type: 'integer', minimum: 3 } },
      required: ['id', 'count'],
      additionalProperties: false,
    };
    const generationConfig: ExtendedConfig = {
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    };
    const result = await geminiModel(emulator, { generationConfig }).generateContentStream('hi');
    const aggregated = await result.response;
    expect(schemaErrors(schema, JSON.parse(aggregated.text()))).toBe('');
  });

  it('returns a small object for application/json without a schema', async () => {
    const { response } = await geminiModel(emulator, {
      generationConfig: { responseMimeType: 'application/json' },
    }).generateContent('hi');
    expect(JSON.parse(response.text())).toEqual({ result: 'ok' });
  });
});

describe('Gemini rejections', () => {
  async function invalidArgument(promise: Promise<unknown>): Promise<GoogleGenerativeAIFetchError> {
    const error = fetchError(await rejectionOf(promise));
    expect(error.status).toBe(400);
    expect(error.statusText).toBe('Bad Request');
    return error;
  }

  it.each([
    ['additionalProperties', { additionalProperties: false }, 'generation_config.response_schema'],
    ['$ref', { $ref: '#/$defs/x' }, 'generation_config.response_schema'],
    ['$defs', { $defs: {} }, 'generation_config.response_schema'],
    [
      '$schema',
      { $schema: 'https://json-schema.org/draft/2020-12/schema' },
      'generation_config.response_schema',
    ],
  ])('rejects a responseSchema containing %s', async (name, extra, path) => {
    const responseSchema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      ...extra,
    } as unknown as ResponseSchema;
    const error = await invalidArgument(
      geminiModel(emulator, {
        generationConfig: { responseMimeType: 'application/json', responseSchema },
      }).generateContent('hi'),
    );
    const expected = `Invalid JSON payload received. Unknown name "${name}" at '${path}': Cannot find field.`;
    expect(error.message).toContain(`[400 Bad Request] ${expected}`);
    expect(error.errorDetails).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: path, description: expected }],
      },
    ]);
  });

  it('names nested paths the way Google does', async () => {
    const responseSchema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: {
          type: 'array',
          items: { type: 'object', properties: { c: { type: 'string' } }, additionalProperties: false },
        },
      },
    } as unknown as ResponseSchema;
    const error = await invalidArgument(
      geminiModel(emulator, {
        generationConfig: { responseMimeType: 'application/json', responseSchema },
      }).generateContent('hi'),
    );
    expect(error.message).toContain(
      `Unknown name "additionalProperties" at 'generation_config.response_schema.properties[1].value.items': Cannot find field.`,
    );
  });

  it('rejects responseSchema together with responseJsonSchema', async () => {
    const generationConfig: ExtendedConfig = {
      responseMimeType: 'application/json',
      responseSchema: { type: SchemaType.OBJECT, properties: { a: { type: SchemaType.STRING } } },
      responseJsonSchema: { type: 'object' },
    };
    const error = await invalidArgument(geminiModel(emulator, { generationConfig }).generateContent('hi'));
    expect(error.message).toContain('response_json_schema and response_schema cannot both be set');
  });

  it('rejects responseSchema without responseMimeType application/json', async () => {
    const error = await invalidArgument(
      geminiModel(emulator, {
        generationConfig: {
          responseSchema: { type: SchemaType.OBJECT, properties: { a: { type: SchemaType.STRING } } },
        },
      }).generateContent('hi'),
    );
    expect(error.message).toContain('generation_config.response_mime_type');
  });

  it('rejects an OBJECT schema without properties', async () => {
    const error = await invalidArgument(
      geminiModel(emulator, {
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: { type: SchemaType.OBJECT, properties: {} },
        },
      }).generateContent('hi'),
    );
    expect(error.message).toContain(
      '* GenerateContentRequest.generation_config.response_schema.properties: should be non-empty for OBJECT type',
    );
  });

  it('rejects missing or empty contents', async () => {
    const error = await invalidArgument(geminiModel(emulator).generateContent({ contents: [] }));
    expect(error.message).toContain('* GenerateContentRequest.contents: contents is not specified');
    const raw = await postJson(
      `${emulator.geminiBaseUrl}/v1beta/models/gemini-test:generateContent`,
      {},
      { 'x-goog-api-key': 'k' },
    );
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });

  it('rejects a function response that does not follow a matching function call', async () => {
    const orphan = await invalidArgument(
      geminiModel(emulator).generateContent({
        contents: [
          { role: 'user', parts: [{ text: 'hi' }] },
          { role: 'model', parts: [{ text: 'hello' }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: {} } }] },
        ],
      }),
    );
    expect(orphan.message).toContain(
      'Please ensure that function response turn comes immediately after a function call turn.',
    );
    const wrongName = await invalidArgument(
      geminiModel(emulator).generateContent({
        contents: [
          { role: 'user', parts: [{ text: 'hi' }] },
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: {} } }] },
        ],
      }),
    );
    expect(wrongName.message).toContain('function_response.name');
  });

  it('rejects a request without an API key with 403', async () => {
    const response = await postJson(`${emulator.geminiBaseUrl}/v1beta/models/gemini-test:generateContent`, {
      contents: [{ parts: [{ text: 'hi' }] }],
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
  });
});

describe('Gemini faults', () => {
  it('sends 429 RESOURCE_EXHAUSTED with RetryInfo details', async () => {
    emulator.script({
      kind: 'error',
      status: 429,
      message: 'You exceeded your current quota.',
      retryDelay: '7s',
    });
    const error = fetchError(await rejectionOf(geminiModel(emulator).generateContent('hi')));
    expect(error.status).toBe(429);
    expect(error.errorDetails).toEqual([
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' },
    ]);
    expect(error.message).toContain('[429 Too Many Requests] You exceeded your current quota.');
  });

  it('derives RetryInfo and the retry-after header from retryAfterSeconds', async () => {
    emulator.script({ kind: 'error', status: 503, retryAfterSeconds: 2 });
    const response = await postJson(
      `${emulator.geminiBaseUrl}/v1beta/models/gemini-test:generateContent`,
      { contents: [{ parts: [{ text: 'hi' }] }] },
      { 'x-goog-api-key': 'k' },
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({
      error: {
        code: 503,
        message: 'The model is overloaded. Please try again later.',
        status: 'UNAVAILABLE',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }],
      },
    });
  });

  it('fails the stream when it is cut mid-way', async () => {
    emulator.script({
      kind: 'text',
      text: 'a long streamed answer',
      chunkSize: 4,
      streamFault: { kind: 'cut', afterChunks: 2 },
    });
    const result = await geminiModel(emulator).generateContentStream('hi');
    const error = await rejectionOf(collect(result.stream));
    expect(error).toBeInstanceOf(GoogleGenerativeAIError);
    await expect(result.response).rejects.toBeInstanceOf(GoogleGenerativeAIError);
  });

  it('fails the stream on a malformed chunk', async () => {
    emulator.script({
      kind: 'text',
      text: 'hello world',
      chunkSize: 4,
      streamFault: { kind: 'malformed', afterChunks: 1 },
    });
    const result = await geminiModel(emulator).generateContentStream('hi');
    const error = await rejectionOf(collect(result.stream));
    expect(error).toBeInstanceOf(GoogleGenerativeAIError);
    expect((error as Error).message).toContain('Error parsing JSON response');
    await expect(result.response).rejects.toThrow('Error parsing JSON response');
  });

  it('sends an in-stream error as a data event carrying the Google error', async () => {
    emulator.script({
      kind: 'text',
      text: 'hello world',
      chunkSize: 4,
      streamFault: { kind: 'error-event', afterChunks: 1, status: 503 },
    });
    const result = await geminiModel(emulator).generateContentStream('hi');
    const chunks = (await collect(result.stream)) as unknown[];
    expect(chunks).toHaveLength(2);
    expect(chunks[1]).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
  });

  it('aborts on a hang when the request timeout fires, and keeps serving', async () => {
    emulator.script({ kind: 'hang' });
    const error = await rejectionOf(geminiModel(emulator, {}, { timeout: 200 }).generateContent('hi'));
    expect(error).toBeInstanceOf(GoogleGenerativeAIAbortError);
    const { response } = await geminiModel(emulator).generateContent('hi');
    expect(response.text()).toBe(defaultReplyText);
  });
});
