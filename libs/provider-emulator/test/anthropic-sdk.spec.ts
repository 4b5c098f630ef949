import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultReplyText, startProviderEmulator, type ProviderEmulator } from '../src/index';
import { anthropicClient, postJson, rejectionOf, schemaErrors, waitFor } from './helpers';

let emulator: ProviderEmulator;
let client: Anthropic;
let classicClient: Anthropic;

beforeAll(async () => {
  emulator = await startProviderEmulator();
  client = anthropicClient(emulator);
  classicClient = anthropicClient(emulator, { version: '2023-06-01' });
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

const base = { model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'hi' }] };
type CreateParams = Anthropic.MessageCreateParamsNonStreaming;

async function drain(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('Anthropic messages: answers', () => {
  it('returns a 2026-10-21 message with v1 fields, Bearer auth and the request id', async () => {
    emulator.script({
      kind: 'text',
      text: 'Hello there',
      usage: {
        inputTokens: 30,
        cachedInputTokens: 15,
        cacheCreationInputTokens: 5,
        outputTokens: 9,
        reasoningTokens: 4,
      },
    });
    const { data: message, response } = await client.messages.create(base).withResponse();

    expect(response.headers.get('content-type')).toBe('application/json');
    expect(message.id).toMatch(/^msg_01/);
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe('claude-test');
    expect(message.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.stop_sequence).toBeNull();
    expect(message.stop_details).toBeNull();
    expect(message.container).toBeNull();
    expect(message.diagnostics).toBeNull();
    expect(message.usage).toMatchObject({
      input_tokens: 10,
      cache_read_input_tokens: 15,
      cache_creation_input_tokens: 5,
      output_tokens: 9,
      output_tokens_details: { thinking_tokens: 4 },
      service_tier: 'standard',
    });
    const requestId = response.headers.get('request-id');
    expect(requestId).toMatch(/^req_01/);

    const recorded = emulator.lastRequest('anthropic');
    expect(recorded?.headers['anthropic-version']).toBe('2026-10-21');
    expect(recorded?.headers.authorization).toBe('Bearer sk-ant-test');
    expect(recorded?.requestId).toBe(requestId);
  });

  it('speaks 2023-06-01 when the client pins it, without the v1-only fields', async () => {
    const message = await classicClient.messages.create({ ...base, temperature: 0.2 } as CreateParams);
    expect(message.content).toEqual([{ type: 'text', text: defaultReplyText }]);
    expect('stop_details' in message).toBe(false);
    expect('container' in message).toBe(false);
    expect(emulator.lastRequest()?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('accepts x-api-key as the credential', async () => {
    const response = await postJson(`${emulator.anthropicBaseUrl}/v1/messages`, base, {
      'x-api-key': 'sk-ant-test',
      'anthropic-version': '2023-06-01',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toMatch(/^req_01/);
  });

  it.each(['2026-10-21', '2023-06-01'])(
    'streams text through messages.stream().finalMessage() with cumulative usage (%s)',
    async (version) => {
      emulator.script({
        kind: 'text',
        text: 'Hello streaming world',
        chunkSize: 5,
        usage: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 15 },
      });
      const stream = (version === '2023-06-01' ? classicClient : client).messages.stream(base);
      const deltas: string[] = [];
      stream.on('text', (text) => deltas.push(text));
      const message = await stream.finalMessage();
      expect(deltas).toEqual(['Hello', ' stre', 'aming', ' worl', 'd']);
      expect(message.content).toEqual([{ type: 'text', text: 'Hello streaming world' }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage.input_tokens).toBe(6);
      expect(message.usage.cache_read_input_tokens).toBe(4);
      expect(message.usage.output_tokens).toBe(15);
      expect(emulator.lastRequest()?.headers['anthropic-version']).toBe(version);
    },
  );

  it('streams the raw event sequence with stream:true on both versions', async () => {
    for (const anthropic of [client, classicClient]) {
      emulator.script({ kind: 'text', text: 'Hi you', chunkSize: 3 });
      const stream = await anthropic.messages.create({ ...base, stream: true });
      const events = (await drain(stream)) as Anthropic.RawMessageStreamEvent[];
      expect(events.map((event) => event.type)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      const start = events[0] as Anthropic.RawMessageStartEvent;
      expect(start.message.usage.output_tokens).toBe(1);
    }
  });

  it('sends an event: line on every SSE frame, including ping', async () => {
    const response = await postJson(
      `${emulator.anthropicBaseUrl}/v1/messages`,
      { ...base, stream: true },
      { authorization: 'Bearer sk-ant-test', 'anthropic-version': '2026-10-21' },
    );
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
    expect(frames.every((frame) => /^event: [a-z_]+\ndata: \{.*\}$/.test(frame))).toBe(true);
    expect(frames[2]).toBe('event: ping\ndata: {"type":"ping"}');
  });

  it('sends a refusal with stop reason and stop_details', async () => {
    emulator.script({ kind: 'refusal', refusal: 'I cannot help with that.' });
    const message = await client.messages.create(base);
    expect(message.stop_reason).toBe('refusal');
    expect(message.stop_details).toEqual({
      type: 'refusal',
      category: null,
      explanation: 'I cannot help with that.',
    });
  });
});

describe('Anthropic messages: tool use', () => {
  const tools: Anthropic.Tool[] = [
    { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
  ];

  it('returns tool_use blocks after optional text', async () => {
    emulator.script({
      kind: 'tool-calls',
      text: 'Checking.',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_weather', arguments: { city: 'Rome' }, id: 'toolu_fixed' },
      ],
    });
    const message = await client.messages.create({ ...base, tools });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[0]).toEqual({ type: 'text', text: 'Checking.' });
    const uses = message.content.filter(
      (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use',
    );
    expect(uses.map((block) => block.input)).toEqual([{ city: 'Paris' }, { city: 'Rome' }]);
    expect(uses[0]?.id).toMatch(/^toolu_01/);
    expect(uses[1]?.id).toBe('toolu_fixed');
  });

  it('streams tool input as input_json_delta pieces the SDK reassembles', async () => {
    emulator.script({
      kind: 'tool-calls',
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', days: [1, 2, 3] } }],
      chunkSize: 4,
    });
    const message = await client.messages.stream({ ...base, tools }).finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    const use = message.content[0] as Anthropic.ToolUseBlock;
    expect(use.type).toBe('tool_use');
    expect(use.input).toEqual({ city: 'Paris', days: [1, 2, 3] });
  });

  it('accepts tool_result blocks answering the previous tool_use', async () => {
    const message = await client.messages.create({
      ...base,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
    // With the result in, the default model answers in text that quotes it.
    expect(message.content).toEqual([
      { type: 'text', text: 'Here is what the tool result says: get_weather returned sunny' },
    ]);
  });
});

describe('Anthropic messages: JSON output', () => {
  const schema = {
    type: 'object',
    properties: {
      title: { type: 'string' },
      when: { type: 'string', format: 'date-time' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      rating: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      author: { $ref: '#/$defs/person' },
    },
    required: ['title', 'when', 'tags', 'rating', 'author'],
    additionalProperties: false,
    $defs: {
      person: {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      },
    },
  };

  it('generates an instance of output_config.format.schema', async () => {
    emulator.script({ kind: 'json' });
    const message = await client.messages.create({
      ...base,
      output_config: { format: { type: 'json_schema', schema } },
    });
    const block = message.content[0] as Anthropic.TextBlock;
    expect(schemaErrors(schema, JSON.parse(block.text))).toBe('');
  });

  it('generates JSON for the legacy output_format too, streamed', async () => {
    const response = await postJson(
      `${emulator.anthropicBaseUrl}/v1/messages`,
      { ...base, output_format: { type: 'json_schema', schema } },
      {
        'x-api-key': 'k',
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'structured-outputs-2025-11-13',
      },
    );
    const message = (await response.json()) as { content: Array<{ text: string }> };
    expect(schemaErrors(schema, JSON.parse(message.content[0]!.text))).toBe('');

    const streamed = await client.messages
      .stream({ ...base, output_config: { format: { type: 'json_schema', schema } } })
      .finalText();
    expect(schemaErrors(schema, JSON.parse(streamed))).toBe('');
  });
});

describe('Anthropic messages: rejections', () => {
  async function badRequest(
    promise: Promise<unknown>,
  ): Promise<InstanceType<typeof Anthropic.BadRequestError>> {
    const error = await rejectionOf(promise);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const badRequestError = error as InstanceType<typeof Anthropic.BadRequestError>;
    expect(badRequestError.status).toBe(400);
    expect(badRequestError.type).toBe('invalid_request_error');
    expect(badRequestError.requestID).toMatch(/^req_01/);
    expect(badRequestError.message).toBe(`400 ${JSON.stringify(badRequestError.error)}`);
    return badRequestError;
  }

  it.each(['temperature', 'top_p', 'top_k'])(
    'rejects %s on 2026-10-21 but not on 2023-06-01',
    async (parameter) => {
      const params = { ...base, [parameter]: parameter === 'top_k' ? 5 : 0.5 } as CreateParams;
      const error = await badRequest(client.messages.create(params));
      expect(error.apiMessage).toBe(`${parameter}: Extra inputs are not permitted`);
      await expect(classicClient.messages.create(params)).resolves.toMatchObject({ type: 'message' });
    },
  );

  it.each(['max_tokens', 'messages', 'model'])('rejects a request without %s', async (field) => {
    const params: Record<string, unknown> = { ...base };
    delete params[field];
    const error = await badRequest(client.messages.create(params as unknown as CreateParams));
    expect(error.apiMessage).toBe(`${field}: Field required`);
    expect(error.error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: `${field}: Field required` },
      request_id: error.requestID,
    });
  });

  it('rejects tool_result blocks with no matching tool_use in the previous message', async () => {
    const error = await badRequest(
      client.messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: 'Let me think.' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_orphan', content: 'sunny' }] },
        ],
      }),
    );
    expect(error.apiMessage).toBe(
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_orphan. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });

  it('rejects tool_use blocks left unanswered by the next message', async () => {
    const error = await badRequest(
      client.messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }],
          },
          { role: 'user', content: 'never mind' },
        ],
      }),
    );
    expect(error.apiMessage).toContain(
      '`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1.',
    );
  });

  it('rejects a system role inside messages on 2023-06-01 and accepts it on 2026-10-21', async () => {
    const params = {
      ...base,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'Now answer in French.' },
        { role: 'user', content: 'again' },
      ],
    } as CreateParams;
    const error = await badRequest(classicClient.messages.create(params));
    expect(error.apiMessage).toBe(
      'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
    );
    await expect(client.messages.create(params)).resolves.toMatchObject({ type: 'message' });
  });

  it.each([
    ['minimum', { type: 'integer', minimum: 1 }, "For 'integer' type, property 'minimum' is not supported"],
    ['maximum', { type: 'number', maximum: 1 }, "For 'number' type, property 'maximum' is not supported"],
    ['multipleOf', { type: 'number', multipleOf: 2 }, "property 'multipleOf' is not supported"],
    [
      'minLength',
      { type: 'string', minLength: 2 },
      "For 'string' type, property 'minLength' is not supported",
    ],
    ['maxLength', { type: 'string', maxLength: 2 }, "property 'maxLength' is not supported"],
    [
      'minItems 2',
      { type: 'array', items: { type: 'string' }, minItems: 2 },
      "'minItems' values other than 0 and 1 are not supported",
    ],
    [
      'maxItems',
      { type: 'array', items: { type: 'string' }, maxItems: 3 },
      "property 'maxItems' is not supported",
    ],
    ['format', { type: 'string', format: 'credit-card' }, "String format 'credit-card' is not supported"],
    ['external $ref', { $ref: 'https://example.com/schema.json' }, 'External $ref is not supported'],
    [
      'additionalProperties schema',
      { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
      "'additionalProperties' must be set to false",
    ],
    [
      'object without additionalProperties',
      { type: 'object', properties: { a: { type: 'string' } } },
      "'additionalProperties' must be explicitly set to false",
    ],
  ])('rejects an output schema using %s', async (_feature, property, message) => {
    const schema = {
      type: 'object',
      properties: { field: property },
      required: ['field'],
      additionalProperties: false,
    };
    const error = await badRequest(
      client.messages.create({ ...base, output_config: { format: { type: 'json_schema', schema } } }),
    );
    expect(error.apiMessage).toMatch(/^output_config\.format\.schema: /);
    expect(error.apiMessage).toContain(message);
  });

  it('rejects recursive output schemas', async () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
      additionalProperties: false,
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['children'],
          additionalProperties: false,
        },
      },
    };
    const error = await badRequest(
      client.messages.create({ ...base, output_config: { format: { type: 'json_schema', schema } } }),
    );
    expect(error.apiMessage).toContain('Recursive schemas are not supported');
  });

  it('rejects requests without credentials or version header', async () => {
    const noKey = await postJson(`${emulator.anthropicBaseUrl}/v1/messages`, base, {
      'anthropic-version': '2023-06-01',
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const noVersion = await postJson(`${emulator.anthropicBaseUrl}/v1/messages`, base, { 'x-api-key': 'k' });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({
      error: { message: 'anthropic-version: header is required' },
    });
  });
});

describe('Anthropic faults', () => {
  it('maps 529 to OverloadedError (an InternalServerError) with overloaded_error', async () => {
    emulator.script({ kind: 'error', status: 529 });
    const error = await rejectionOf(client.messages.create(base));
    expect(error).toBeInstanceOf(Anthropic.OverloadedError);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    const overloaded = error as InstanceType<typeof Anthropic.OverloadedError>;
    expect(overloaded.status).toBe(529);
    expect(overloaded.type).toBe('overloaded_error');
    expect(overloaded.apiMessage).toBe('Overloaded');
  });

  it('sends 429 with retry-after headers readable from the SDK error', async () => {
    emulator.script({ kind: 'error', status: 429, retryAfterSeconds: 3, message: 'Slow down' });
    const error = await rejectionOf(client.messages.create(base));
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const rateLimit = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(rateLimit.headers.get('retry-after')).toBe('3');
    expect(rateLimit.type).toBe('rate_limit_error');
    expect(rateLimit.apiMessage).toBe('Slow down');
  });

  it('is retried by the SDK after a 529 with retry-after-ms 0', async () => {
    emulator.script({ kind: 'error', status: 529, retryAfterMs: 0 }, { kind: 'text', text: 'second try' });
    const message = await anthropicClient(emulator, { maxRetries: 1 }).messages.create(base);
    expect(message.content).toEqual([{ type: 'text', text: 'second try' }]);
    expect(emulator.requests).toHaveLength(2);
  });

  it('throws APIError without status on an in-stream error event', async () => {
    emulator.script({
      kind: 'text',
      text: 'partial answer',
      streamFault: { kind: 'error-event', afterChunks: 4 },
    });
    const error = await rejectionOf(client.messages.stream(base).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBeUndefined();
    expect(apiError.type).toBe('overloaded_error');
    expect(apiError.apiMessage).toBe('Overloaded');
  });

  it('throws when the stream is cut mid-way', async () => {
    emulator.script({
      kind: 'text',
      text: 'this will be cut',
      chunkSize: 2,
      streamFault: { kind: 'cut', afterChunks: 5 },
    });
    const stream = await client.messages.create({ ...base, stream: true });
    const error = await rejectionOf(drain(stream));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(Anthropic.APIError);
  });

  it('throws on a malformed event', async () => {
    emulator.script({
      kind: 'text',
      text: 'hello',
      streamFault: { kind: 'malformed', afterChunks: 3, data: '{"type":"content_block_delta",' },
    });
    const error = await rejectionOf(client.messages.stream(base).finalMessage());
    // MessageStream wraps the JSON.parse failure in an AnthropicError.
    expect(error).toBeInstanceOf(Anthropic.AnthropicError);
    expect(error).not.toBeInstanceOf(Anthropic.APIError);
    expect((error as Error).message).toMatch(/JSON|property name/);
  });

  it('times out on a hang and keeps serving afterwards', async () => {
    emulator.script({ kind: 'hang' });
    const error = await rejectionOf(anthropicClient(emulator, { timeout: 200 }).messages.create(base));
    expect(error).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    await expect(client.messages.create(base)).resolves.toMatchObject({ type: 'message' });
  });

  it('lets the client abort a hung request, and keeps serving', async () => {
    emulator.script({ kind: 'hang' });
    const controller = new AbortController();
    const pending = rejectionOf(client.messages.create(base, { signal: controller.signal }));
    // Abort once the request is hung: it has reached the emulator.
    await waitFor(
      () => (emulator.requests.length === 1 ? true : undefined),
      'the hung request to reach the emulator',
      { state: () => emulator.requests },
    );
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(Anthropic.APIUserAbortError);
    await expect(client.messages.create(base)).resolves.toMatchObject({ type: 'message' });
  });

  it('lists models in the Anthropic shape on the shared /v1/models path', async () => {
    const page = await client.models.list();
    expect(page.data.map((model) => model.id)).toEqual(['gpt-test', 'claude-test', 'gemini-test']);
    expect(page.data[0]?.type).toBe('model');
  });
});
