import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultReplyText, startProviderEmulator, type ProviderEmulator } from '../src/index';
import { anthropicClient, postJson, schemaErrors } from './helpers';
import { modelTools, quotedResult, weatherParameters } from './model-tools';

let emulator: ProviderEmulator;
let client: Anthropic;

beforeAll(async () => {
  emulator = await startProviderEmulator();
  client = anthropicClient(emulator);
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

const tools: Anthropic.Tool[] = modelTools.map((tool) => ({
  name: tool.name,
  description: tool.description,
  input_schema: tool.parameters as Anthropic.Tool.InputSchema,
}));

const ask = (content: string): Anthropic.MessageParam[] => [{ role: 'user', content }];
type Params = Omit<Anthropic.MessageCreateParamsNonStreaming, 'model' | 'max_tokens'>;

/** Sends the request both ways: the plain message and the one the SDK's MessageStream assembles. */
async function bothWays(params: Params): Promise<Anthropic.Message[]> {
  const request = { model: 'claude-test', max_tokens: 1024, ...params };
  return [await client.messages.create(request), await client.messages.stream(request).finalMessage()];
}

const toolUses = (message: Anthropic.Message) =>
  message.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ name: block.name, input: block.input }] : [],
  );
const textOf = (message: Anthropic.Message) =>
  message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');

describe('Anthropic default model: tool_choice', () => {
  it('calls the tool named by {type:"tool"} with input that satisfies its schema, streamed and not', async () => {
    for (const message of await bothWays({
      messages: ask('Hello!'),
      tools,
      tool_choice: { type: 'tool', name: 'get_weather' },
    })) {
      expect(message.stop_reason).toBe('tool_use');
      const uses = toolUses(message);
      expect(uses.map((use) => use.name)).toEqual(['get_weather']);
      expect(schemaErrors(weatherParameters, uses[0]?.input)).toBe('');
    }
  });

  it('any: calls the mentioned tool, else the first one', async () => {
    for (const message of await bothWays({
      messages: ask('get time'),
      tools,
      tool_choice: { type: 'any' },
    })) {
      expect(toolUses(message).map((use) => use.name)).toEqual(['get_time']);
    }
    for (const message of await bothWays({ messages: ask('Hello!'), tools, tool_choice: { type: 'any' } })) {
      expect(toolUses(message).map((use) => use.name)).toEqual(['get_weather']);
    }
  });

  it('none: answers text even when the message names a tool', async () => {
    for (const message of await bothWays({
      messages: ask('get the weather'),
      tools,
      tool_choice: { type: 'none' },
    })) {
      expect(message.stop_reason).toBe('end_turn');
      expect(message.content).toEqual([{ type: 'text', text: defaultReplyText }]);
    }
  });

  it('auto: calls the named tools (one with disable_parallel_tool_use), text otherwise', async () => {
    for (const message of await bothWays({ messages: ask('get the weather and the time'), tools })) {
      expect(toolUses(message).map((use) => use.name)).toEqual(['get_weather', 'get_time']);
    }
    for (const message of await bothWays({
      messages: ask('get the weather and the time'),
      tools,
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    })) {
      expect(toolUses(message).map((use) => use.name)).toEqual(['get_weather']);
    }
    for (const message of await bothWays({ messages: ask('Hello!'), tools })) {
      expect(textOf(message)).toBe(defaultReplyText);
    }
  });

  it('answers in text that quotes the tool result once it is in, streamed and not', async () => {
    const messages: Anthropic.MessageParam[] = [
      ...ask('get the weather'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'rainy' }] },
        ],
      },
    ];
    for (const message of await bothWays({ messages, tools })) {
      expect(message.stop_reason).toBe('end_turn');
      expect(textOf(message)).toBe(quotedResult('get_weather', 'rainy'));
    }
  });

  it('lets a scripted reply win over the default behaviour', async () => {
    emulator.script({ kind: 'text', text: 'scripted' });
    const [message] = await bothWays({ messages: ask('hi'), tools, tool_choice: { type: 'any' } });
    expect(textOf(message!)).toBe('scripted');
  });

  it('rejects tool_choice without tools, an unknown tool and an unknown type', async () => {
    const post = (body: object) =>
      postJson(
        `${emulator.anthropicBaseUrl}/v1/messages`,
        { model: 'claude-test', max_tokens: 10, messages: ask('hi'), ...body },
        { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      );
    for (const body of [
      { tool_choice: { type: 'any' } },
      { tools, tool_choice: { type: 'tool', name: 'nope' } },
      { tools, tool_choice: { type: 'sometimes' } },
    ]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    }
  });
});

describe('Anthropic default model: JSON', () => {
  const schema = {
    type: 'object',
    properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['title', 'tags'],
    additionalProperties: false,
  };

  it('answers an instance of output_config.format.schema, streamed and not', async () => {
    for (const message of await bothWays({
      messages: ask('Describe Paris'),
      output_config: { format: { type: 'json_schema', schema } },
    })) {
      expect(schemaErrors(schema, JSON.parse(textOf(message)))).toBe('');
    }
  });

  it('answers a JSON object when the system prompt or the message asks for JSON, streamed and not', async () => {
    for (const params of [
      { system: 'Be brief.\n\nRespond with a single valid JSON object.', messages: ask('Describe Paris') },
      { messages: ask('Describe Paris. Answer in JSON.') },
    ]) {
      for (const message of await bothWays(params)) {
        const value: unknown = JSON.parse(textOf(message));
        expect(value).toBeTypeOf('object');
        expect(Array.isArray(value)).toBe(false);
      }
    }
  });

  it('answers prose when JSON is only talked about', async () => {
    const [message] = await bothWays({ system: 'You know JSON well.', messages: ask('What is JSON?') });
    expect(textOf(message!)).toBe(defaultReplyText);
  });
});
