import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defaultReplyText, startProviderEmulator, type ProviderEmulator } from '../src/index';
import { openAiClient, postJson, rejectionOf, schemaErrors } from './helpers';

let emulator: ProviderEmulator;
let client: OpenAI;

beforeAll(async () => {
  emulator = await startProviderEmulator();
  client = openAiClient(emulator);
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

const hello = [{ role: 'user' as const, content: 'hi' }];

describe('OpenAI chat completions: answers', () => {
  it('returns a scripted text with the full completion shape and request id', async () => {
    emulator.script({ kind: 'text', text: 'Hello there', usage: { inputTokens: 12, outputTokens: 5 } });
    const { data: completion, response } = await client.chat.completions
      .create({ model: 'gpt-test', messages: hello })
      .withResponse();

    expect(response.headers.get('content-type')).toBe('application/json');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-test');
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: 'Hello there', refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: 'stop',
    });
    expect(completion.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 5,
      total_tokens: 17,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-request-id')).toBe(emulator.lastRequest('openai')?.requestId);
  });

  it('answers unscripted requests with the default text', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(completion.choices[0]?.message.content).toBe(defaultReplyText);
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('maps usage overrides: cached tokens inside prompt, reasoning inside completion', async () => {
    emulator.script({
      kind: 'text',
      text: 'ok',
      finishReason: 'length',
      usage: { inputTokens: 100, cachedInputTokens: 60, outputTokens: 40, reasoningTokens: 30 },
    });
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage?.prompt_tokens).toBe(100);
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(60);
    expect(completion.usage?.completion_tokens).toBe(40);
    expect(completion.usage?.completion_tokens_details?.reasoning_tokens).toBe(30);
    expect(completion.usage?.total_tokens).toBe(140);
  });

  it('sends a refusal as content null with the refusal text', async () => {
    emulator.script({ kind: 'refusal', refusal: "I'm sorry, I can't help with that." });
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(completion.choices[0]?.message.content).toBeNull();
    expect(completion.choices[0]?.message.refusal).toBe("I'm sorry, I can't help with that.");
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams text in chunks with usage only in the final chunk', async () => {
    emulator.script({
      kind: 'text',
      text: 'Hello world',
      chunkSize: 3,
      usage: { inputTokens: 12, outputTokens: 5 },
    });
    const stream = await client.chat.completions.create({
      model: 'gpt-test',
      messages: hello,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Hello world');
    expect(
      chunks
        .filter((chunk) => chunk.choices[0]?.delta.content)
        .map((chunk) => chunk.choices[0]?.delta.content),
    ).toEqual(['Hel', 'lo ', 'wor', 'ld']);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.total_tokens).toBe(17);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('omits usage from chunks when include_usage is not requested', async () => {
    const response = await postJson(
      `${emulator.openaiBaseUrl}/chat/completions`,
      { model: 'gpt-test', messages: hello, stream: true },
      { authorization: 'Bearer sk-test' },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const text = await response.text();
    const events = text.split('\n\n').filter((event) => event !== '');
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const payloads = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.slice(6)) as Record<string, unknown>);
    expect(payloads.some((payload) => 'usage' in payload)).toBe(false);
  });

  it('rebuilds a streamed completion with the SDK stream helper', async () => {
    emulator.script({ kind: 'text', text: 'Streaming is fun', chunkSize: 4 });
    const completion = await client.chat.completions
      .stream({ model: 'gpt-test', messages: hello, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('Streaming is fun');
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('streams a refusal as refusal deltas', async () => {
    emulator.script({ kind: 'refusal', refusal: 'No can do.', chunkSize: 3 });
    const completion = await client.chat.completions
      .stream({ model: 'gpt-test', messages: hello })
      .finalChatCompletion();
    expect(completion.choices[0]?.message.refusal).toBe('No can do.');
    expect(completion.choices[0]?.message.content).toBeNull();
  });

  it('streams a refusal in delta.refusal, piece by piece, never in delta.content', async () => {
    emulator.script({ kind: 'refusal', refusal: 'No can do.', chunkSize: 3 });
    const stream = await client.chat.completions.create({ model: 'gpt-test', messages: hello, stream: true });
    const deltas: Array<Record<string, unknown>> = [];
    for await (const chunk of stream) if (chunk.choices[0]) deltas.push({ ...chunk.choices[0].delta });
    expect(deltas[0]).toEqual({ role: 'assistant', content: null, refusal: null });
    expect(deltas.slice(1, -1)).toEqual(['No ', 'can', ' do', '.'].map((refusal) => ({ refusal })));
    expect(deltas.at(-1)).toEqual({});
  });
});

describe('OpenAI chat completions: tool calls', () => {
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
  ];

  it('returns several tool calls with JSON-string arguments', async () => {
    emulator.script({
      kind: 'tool-calls',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_weather', arguments: { city: 'Oslo' }, id: 'call_fixed' },
      ],
    });
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages: hello, tools });
    const message = completion.choices[0]?.message;
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message?.content).toBeNull();
    expect(message?.tool_calls).toHaveLength(2);
    const [first, second] = message?.tool_calls ?? [];
    expect(first?.id).toMatch(/^call_/);
    expect(first?.type === 'function' && JSON.parse(first.function.arguments)).toEqual({ city: 'Paris' });
    expect(second?.id).toBe('call_fixed');
  });

  it('streams tool calls as header and argument deltas the SDK reassembles', async () => {
    emulator.script({
      kind: 'tool-calls',
      text: 'Let me check.',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
        { name: 'get_time', arguments: { zone: 'CET' } },
      ],
      chunkSize: 5,
    });
    const completion = await client.chat.completions
      .stream({ model: 'gpt-test', messages: hello, tools })
      .finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('Let me check.');
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    const calls = (message?.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [call.function] : [],
    );
    expect(calls.map((call) => call.name)).toEqual(['get_weather', 'get_time']);
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ city: 'Paris', units: 'metric' });
    expect(JSON.parse(calls[1]!.arguments)).toEqual({ zone: 'CET' });
  });

  it('accepts tool results that answer the previous tool calls', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe(
      'Here is what the tool result says: get_weather returned sunny',
    );
  });
});

describe('OpenAI chat completions: JSON output', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      age: { type: 'integer', minimum: 18 },
      email: { type: 'string', format: 'email' },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2 },
      nickname: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      address: {
        type: 'object',
        properties: { city: { type: 'string', pattern: '^[A-Z][a-z]+$' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
    required: ['name', 'age', 'email', 'tags', 'nickname', 'address'],
    additionalProperties: false,
  };

  it('generates an instance of the strict json_schema', async () => {
    emulator.script({ kind: 'json' });
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: hello,
      response_format: { type: 'json_schema', json_schema: { name: 'person', strict: true, schema } },
    });
    const value: unknown = JSON.parse(completion.choices[0]?.message.content ?? '');
    expect(schemaErrors(schema, value)).toBe('');
  });

  it('answers unscripted JSON requests with schema-conforming JSON too', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: hello,
      response_format: { type: 'json_schema', json_schema: { name: 'person', strict: true, schema } },
    });
    expect(schemaErrors(schema, JSON.parse(completion.choices[0]?.message.content ?? ''))).toBe('');
  });

  it('feeds chat.completions.parse with a zod response format', async () => {
    const Person = z.object({
      name: z.string(),
      birthday: z.iso.date(),
      pets: z.array(z.object({ kind: z.enum(['cat', 'dog']) })),
    });
    const completion = await client.chat.completions.parse({
      model: 'gpt-test',
      messages: hello,
      response_format: zodResponseFormat(Person, 'person'),
    });
    const parsed = completion.choices[0]?.message.parsed;
    expect(Person.safeParse(parsed).success).toBe(true);
  });

  it('returns a small object for json_object mode', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Answer in JSON please' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ result: 'ok' });
  });

  it('sends explicit JSON values and deliberately invalid JSON text verbatim', async () => {
    emulator.script({ kind: 'json', value: { ok: true } }, { kind: 'json', text: '{"ok": tru' });
    const first = await client.chat.completions.create({ model: 'gpt-test', messages: hello });
    const second = await client.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(first.choices[0]?.message.content).toBe('{"ok":true}');
    expect(second.choices[0]?.message.content).toBe('{"ok": tru');
  });
});

describe('OpenAI chat completions: rejections', () => {
  async function badRequest(
    body: Record<string, unknown>,
  ): Promise<InstanceType<typeof OpenAI.BadRequestError>> {
    const error = await rejectionOf(
      client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    return error as InstanceType<typeof OpenAI.BadRequestError>;
  }

  const strictFormat = (schema: unknown, name = 'out') => ({
    model: 'gpt-test',
    messages: hello,
    response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
  });

  it('rejects json_object when no message mentions json', async () => {
    const error = await badRequest({
      model: 'gpt-test',
      messages: hello,
      response_format: { type: 'json_object' },
    });
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      "400 'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
    );
    expect(error.param).toBe('messages');
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBeNull();
    expect(error.requestID).toMatch(/^req_/);
  });

  it('rejects strict schemas without additionalProperties:false, naming the context', async () => {
    const error = await badRequest(
      strictFormat({
        type: 'object',
        properties: {
          items: {
            type: 'array',
            items: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          },
        },
        required: ['items'],
        additionalProperties: false,
      }),
    );
    expect(error.message).toBe(
      "400 Invalid schema for response_format 'out': In context=('properties', 'items', 'items'), 'additionalProperties' is required to be supplied and to be false.",
    );
    expect(error.param).toBe('response_format');
    expect(error.code).toBe('invalid_json_schema');
  });

  it('rejects strict schemas whose required list misses a property', async () => {
    const error = await badRequest(
      strictFormat({
        type: 'object',
        properties: { a: { type: 'string' }, roles: { type: 'string' } },
        required: ['a'],
        additionalProperties: false,
      }),
    );
    expect(error.message).toBe(
      "400 Invalid schema for response_format 'out': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'roles'.",
    );
  });

  it.each([
    ['oneOf', { oneOf: [{ type: 'string' }, { type: 'number' }] }],
    ['allOf', { allOf: [{ type: 'string' }] }],
    ['not', { type: 'string', not: { const: 'x' } }],
    ['if', { type: 'string', if: { const: 'a' }, then: { const: 'a' } }],
    [
      'patternProperties',
      { type: 'object', patternProperties: {}, properties: {}, required: [], additionalProperties: false },
    ],
    ['minLength', { type: 'string', minLength: 2 }],
    ['maxLength', { type: 'string', maxLength: 2 }],
    ['uniqueItems', { type: 'array', items: { type: 'string' }, uniqueItems: true }],
    ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string' } }],
  ])('rejects the unsupported keyword %s', async (keyword, property) => {
    const error = await badRequest(
      strictFormat({
        type: 'object',
        properties: { field: property },
        required: ['field'],
        additionalProperties: false,
      }),
    );
    expect(error.message).toBe(
      `400 Invalid schema for response_format 'out': In context=('properties', 'field'), '${keyword}' is not permitted.`,
    );
  });

  it('rejects a root that is not an object, or is anyOf', async () => {
    const arrayRoot = await badRequest(strictFormat({ type: 'array', items: { type: 'string' } }));
    expect(arrayRoot.message).toBe(
      `400 Invalid schema for response_format 'out': schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`,
    );
    const anyOfRoot = await badRequest(
      strictFormat({
        anyOf: [{ type: 'object', properties: {}, required: [], additionalProperties: false }],
      }),
    );
    expect(anyOfRoot.message).toBe(
      `400 Invalid schema for response_format 'out': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`,
    );
  });

  it('accepts local $defs references, including recursion, and rejects other refs', async () => {
    const node = {
      type: 'object',
      properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
      required: ['value', 'children'],
      additionalProperties: false,
    };
    const ok = await client.chat.completions.create(
      strictFormat({
        type: 'object',
        properties: { root: { $ref: '#/$defs/node' } },
        required: ['root'],
        additionalProperties: false,
        $defs: { node },
      }) as OpenAI.ChatCompletionCreateParamsNonStreaming,
    );
    expect(JSON.parse(ok.choices[0]?.message.content ?? '')).toEqual({
      root: { value: 'example', children: [{ value: 'example', children: [] }] },
    });

    const external = await badRequest(
      strictFormat({
        type: 'object',
        properties: { a: { $ref: 'https://example.com/a.json' } },
        required: ['a'],
        additionalProperties: false,
      }),
    );
    expect(external.message).toContain(
      "In context=('properties', 'a'), '$ref' 'https://example.com/a.json' is not supported",
    );
    const missing = await badRequest(
      strictFormat({
        type: 'object',
        properties: { a: { $ref: '#/$defs/nope' } },
        required: ['a'],
        additionalProperties: false,
      }),
    );
    expect(missing.message).toContain("reference to component 'nope' which was not found in the schema.");
  });

  it('rejects invalid and too long schema names', async () => {
    const valid = { type: 'object', properties: {}, required: [], additionalProperties: false };
    const invalid = await badRequest(strictFormat(valid, 'my schema'));
    expect(invalid.param).toBe('response_format.json_schema.name');
    expect(invalid.message).toContain(
      "string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    );
    const long = await badRequest(strictFormat(valid, 'x'.repeat(65)));
    expect(long.code).toBe('string_above_max_length');
  });

  it('applies the strict rules to strict function tools', async () => {
    const error = await badRequest({
      model: 'gpt-test',
      messages: hello,
      tools: [
        {
          type: 'function',
          function: {
            name: 'lookup',
            strict: true,
            parameters: { type: 'object', properties: { q: { type: 'string' } } },
          },
        },
      ],
    });
    expect(error.message).toBe(
      "400 Invalid schema for function 'lookup': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
    expect(error.param).toBe('tools[0].function.parameters');
  });

  it('rejects missing model and messages', async () => {
    const noModel = await badRequest({ messages: hello });
    expect(noModel.message).toBe('400 you must provide a model parameter');
    const noMessages = await badRequest({ model: 'gpt-test' });
    expect(noMessages.message).toBe("400 Missing required parameter: 'messages'.");
    expect(noMessages.param).toBe('messages');
    expect(noMessages.code).toBe('missing_required_parameter');
  });

  it('rejects tool messages that answer no preceding tool_calls', async () => {
    const error = await badRequest({
      model: 'gpt-test',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    expect(error.message).toBe(
      "400 Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
    expect(error.param).toBe('messages.[1].role');
  });

  it('rejects tool messages whose id does not match, and unanswered tool calls', async () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const mismatched = await badRequest({
      model: 'gpt-test',
      messages: [
        hello[0],
        { role: 'assistant', tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_2', content: 'x' },
      ],
    });
    expect(mismatched.message).toContain(
      "'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.",
    );
    const unanswered = await badRequest({
      model: 'gpt-test',
      messages: [hello[0], { role: 'assistant', tool_calls: [call] }, { role: 'user', content: 'and?' }],
    });
    expect(unanswered.message).toContain(
      'The following tool_call_ids did not have response messages: call_1',
    );
  });

  it('rejects stream_options without stream', async () => {
    const error = await badRequest({
      model: 'gpt-test',
      messages: hello,
      stream_options: { include_usage: true },
    });
    expect(error.param).toBe('stream_options');
  });

  it('rejects a request without credentials with 401', async () => {
    const response = await postJson(`${emulator.openaiBaseUrl}/chat/completions`, {
      model: 'gpt-test',
      messages: hello,
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^You didn't provide an API key/);
  });
});

describe('OpenAI faults', () => {
  it('sends scripted errors with retry-after headers the SDK exposes', async () => {
    emulator.script({ kind: 'error', status: 429, retryAfterSeconds: 7, retryAfterMs: 7000 });
    const error = await rejectionOf(client.chat.completions.create({ model: 'gpt-test', messages: hello }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.headers?.get('retry-after')).toBe('7');
    expect(rateLimit.headers?.get('retry-after-ms')).toBe('7000');
    expect(rateLimit.code).toBe('rate_limit_exceeded');
    expect(rateLimit.message).toBe('429 Rate limit reached for requests.');
  });

  it.each([
    [401, OpenAI.AuthenticationError],
    [403, OpenAI.PermissionDeniedError],
    [404, OpenAI.NotFoundError],
    [409, OpenAI.ConflictError],
    [422, OpenAI.UnprocessableEntityError],
    [500, OpenAI.InternalServerError],
    [503, OpenAI.InternalServerError],
  ])('maps status %i to the SDK error class', async (status, errorClass) => {
    emulator.script({ kind: 'error', status, message: 'scripted failure', code: 'custom_code' });
    const error = await rejectionOf(client.chat.completions.create({ model: 'gpt-test', messages: hello }));
    expect(error).toBeInstanceOf(errorClass);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toBe(`${status} scripted failure`);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('custom_code');
  });

  it('lets the SDK retry immediately when retry-after-ms is 0', async () => {
    // Without a usable header the SDK computes its own backoff (at least 375 ms) with this method:
    // watching it says which wait the SDK chose, where a stopwatch would only guess. It answers 0
    // so the control case below does not sleep either.
    const retrying = openAiClient(emulator, { maxRetries: 1 });
    const defaultBackoff = vi
      .spyOn(
        retrying as unknown as { calculateDefaultRetryTimeoutMillis: () => number },
        'calculateDefaultRetryTimeoutMillis',
      )
      .mockReturnValue(0);
    emulator.script({ kind: 'error', status: 503, retryAfterMs: 0 }, { kind: 'text', text: 'recovered' });
    const completion = await retrying.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(completion.choices[0]?.message.content).toBe('recovered');
    expect(emulator.requests.map((request) => request.headers['x-stainless-retry-count'])).toEqual([
      '0',
      '1',
    ]);
    expect(defaultBackoff).not.toHaveBeenCalled();

    // The control: the same failure without the header makes the SDK fall back to its backoff.
    emulator.reset();
    emulator.script({ kind: 'error', status: 503 }, { kind: 'text', text: 'recovered' });
    await retrying.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(defaultBackoff).toHaveBeenCalledTimes(1);
  });

  it('waits delayMs before answering', async () => {
    // The emulator's delay runs on a fake clock the test moves 1 ms at a time, letting real I/O
    // through between steps: the answer must not arrive before the clock has moved 150 ms.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      emulator.script({ kind: 'text', text: 'slow', delayMs: 150 });
      let answered = false;
      const pending = client.chat.completions
        .create({ model: 'gpt-test', messages: hello })
        .finally(() => (answered = true));
      const ioTurn = () => new Promise((resolve) => setImmediate(resolve));
      for (let turn = 0; turn < 10_000 && emulator.requests.length === 0; turn++) await ioTurn();
      expect(emulator.requests).toHaveLength(1);
      let advancedMs = 0;
      while (!answered && advancedMs < 10_000) {
        await vi.advanceTimersByTimeAsync(1);
        advancedMs += 1;
        await ioTurn();
      }
      expect((await pending).choices[0]?.message.content).toBe('slow');
      expect(advancedMs).toBeGreaterThanOrEqual(150);
    } finally {
      vi.useRealTimers();
    }
  });

  it('throws when the stream is cut mid-way', async () => {
    emulator.script({
      kind: 'text',
      text: 'a long answer that never finishes',
      chunkSize: 4,
      streamFault: { kind: 'cut', afterChunks: 3 },
    });
    const stream = await client.chat.completions.create({ model: 'gpt-test', messages: hello, stream: true });
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
      })(),
    );
    expect(error).toBeInstanceOf(Error);
    // Three events: the role chunk, 'a lo' and 'ng a'.
    expect(seen.join('')).toBe('a long a');
  });

  it('throws on a malformed chunk', async () => {
    emulator.script({ kind: 'text', text: 'hello', streamFault: { kind: 'malformed', afterChunks: 1 } });
    const stream = await client.chat.completions.create({ model: 'gpt-test', messages: hello, stream: true });
    const error = await rejectionOf(
      (async () => {
        for await (const _chunk of stream) {
          // drain
        }
      })(),
    );
    expect(error).toBeInstanceOf(SyntaxError);
  });

  it('throws APIError without status on an in-stream error event', async () => {
    emulator.script({
      kind: 'text',
      text: 'hello',
      streamFault: {
        kind: 'error-event',
        afterChunks: 2,
        message: 'The server had an error mid-stream',
        type: 'server_error',
      },
    });
    const stream = await client.chat.completions.create({ model: 'gpt-test', messages: hello, stream: true });
    const error = await rejectionOf(
      (async () => {
        for await (const _chunk of stream) {
          // drain
        }
      })(),
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBeUndefined();
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toBe(
      'The server had an error mid-stream',
    );
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('server_error');
  });

  it('times out on a hang and keeps serving afterwards', async () => {
    emulator.script({ kind: 'hang' });
    const error = await rejectionOf(
      openAiClient(emulator, { timeout: 200 }).chat.completions.create({
        model: 'gpt-test',
        messages: hello,
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(completion.choices[0]?.message.content).toBe(defaultReplyText);
  });

  it('lets the client abort a stalled stream', async () => {
    emulator.script({
      kind: 'text',
      text: 'stalling answer',
      streamFault: { kind: 'stall', afterChunks: 2 },
    });
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'gpt-test', messages: hello, stream: true },
      { signal: controller.signal },
    );
    const seen: string[] = [];
    // The SDK ends iteration quietly when the user aborts. The abort comes once the stream has
    // stalled (its two chunks seen), while the loop waits for a third: setImmediate runs after the
    // loop has asked for it.
    for await (const chunk of stream) {
      seen.push(chunk.choices[0]?.delta.content ?? '');
      if (seen.join('') === 'stalling') setImmediate(() => controller.abort());
    }
    expect(seen.join('')).toBe('stalling');
    expect(controller.signal.aborted).toBe(true);
  });
});

describe('OpenAI models', () => {
  it('lists models in the OpenAI list shape', async () => {
    const page = await client.models.list();
    expect(page.data.map((model) => model.id)).toEqual(['gpt-test', 'claude-test', 'gemini-test']);
    expect(page.data[0]).toEqual({
      id: 'gpt-test',
      object: 'model',
      created: 1_700_000_000,
      owned_by: 'provider-emulator',
    });
  });
});
