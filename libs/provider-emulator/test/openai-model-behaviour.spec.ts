import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultReplyText, startProviderEmulator, type ProviderEmulator } from '../src/index';
import { openAiClient, postJson, schemaErrors } from './helpers';
import { answerSchema, modelTools, quotedResult, weatherParameters } from './model-tools';

let emulator: ProviderEmulator;
let client: OpenAI;

beforeAll(async () => {
  emulator = await startProviderEmulator();
  client = openAiClient(emulator);
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

const tools: ChatCompletionTool[] = modelTools.map((tool) => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: tool.parameters },
}));

const ask = (content: string): ChatCompletionMessageParam[] => [{ role: 'user', content }];

/** Sends the request both ways and returns the non-streamed and the SDK-assembled streamed message. */
async function bothWays(request: ChatCompletionCreateParamsNonStreaming) {
  const plain = await client.chat.completions.create(request);
  const streamed = await client.chat.completions.stream({ ...request, stream: true }).finalChatCompletion();
  return [plain.choices[0]!, streamed.choices[0]!];
}

function functionCalls(choice: OpenAI.ChatCompletion.Choice) {
  return (choice.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [{ name: call.function.name, arguments: JSON.parse(call.function.arguments) }]
      : [],
  );
}

describe('OpenAI default model: tool_choice', () => {
  it('calls a forced function with arguments that satisfy its schema, streamed and not', async () => {
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('Hello!'),
      tools,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    })) {
      expect(choice.finish_reason).toBe('tool_calls');
      const calls = functionCalls(choice);
      expect(calls.map((call) => call.name)).toEqual(['get_weather']);
      expect(schemaErrors(weatherParameters, calls[0]?.arguments)).toBe('');
    }
  });

  it('required: calls the mentioned tool, else the first one', async () => {
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('Get the time in CET'),
      tools,
      tool_choice: 'required',
    })) {
      expect(functionCalls(choice).map((call) => call.name)).toEqual(['get_time']);
    }
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('Hello!'),
      tools,
      tool_choice: 'required',
    })) {
      expect(functionCalls(choice).map((call) => call.name)).toEqual(['get_weather']);
    }
  });

  it('none: answers text even when the message names a tool', async () => {
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('get weather for Paris'),
      tools,
      tool_choice: 'none',
    })) {
      expect(choice.finish_reason).toBe('stop');
      expect(choice.message.tool_calls ?? []).toEqual([]);
      expect(choice.message.content).toBe(defaultReplyText);
    }
  });

  it('auto: calls the tools a message names (all words of the name), and answers text otherwise', async () => {
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('Please get the weather in Paris and the time in Oslo'),
      tools,
    })) {
      expect(functionCalls(choice).map((call) => call.name)).toEqual(['get_weather', 'get_time']);
    }
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('Get the weather and the time'),
      tools,
      parallel_tool_calls: false,
    })) {
      expect(functionCalls(choice).map((call) => call.name)).toEqual(['get_weather']);
    }
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('What is the weather?'),
      tools,
    })) {
      expect(choice.message.content).toBe(defaultReplyText);
    }
  });

  it('answers in text that quotes the tool result once it is in, streamed and not', async () => {
    const messages: ChatCompletionMessageParam[] = [
      ...ask('get the weather in Paris'),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' },
    ];
    for (const choice of await bothWays({ model: 'gpt-test', messages, tools })) {
      expect(choice.finish_reason).toBe('stop');
      expect(choice.message.content).toBe(quotedResult('get_weather', '{"sky":"clear"}'));
    }
  });

  it('is deterministic: the same request gets the same content', async () => {
    const request = {
      model: 'gpt-test',
      messages: ask('get the weather'),
      tools,
      tool_choice: 'required' as const,
    };
    const [first, second] = await Promise.all([
      client.chat.completions.create(request),
      client.chat.completions.create(request),
    ]);
    expect(functionCalls(first.choices[0]!)).toEqual(functionCalls(second.choices[0]!));
  });

  it('lets a scripted reply win over the default behaviour', async () => {
    emulator.script({ kind: 'text', text: 'scripted' });
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: ask('Hello'),
      tools,
      tool_choice: 'required',
    });
    expect(completion.choices[0]?.message.content).toBe('scripted');
  });

  it('rejects tool_choice without tools, a function that is not offered, and an unknown mode', async () => {
    const post = (body: unknown) =>
      postJson(`${emulator.openaiBaseUrl}/chat/completions`, body, { authorization: 'Bearer sk-test' });
    const withoutTools = await post({ model: 'gpt-test', messages: ask('hi'), tool_choice: 'required' });
    expect(withoutTools.status).toBe(400);
    expect(await withoutTools.json()).toMatchObject({ error: { param: 'tool_choice' } });
    const unknown = await post({
      model: 'gpt-test',
      messages: ask('hi'),
      tools,
      tool_choice: { type: 'function', function: { name: 'nope' } },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { param: 'tool_choice', code: 'invalid_value' } });
    const mode = await post({ model: 'gpt-test', messages: ask('hi'), tools, tool_choice: 'sometimes' });
    expect(mode.status).toBe(400);
  });
});

describe('OpenAI default model: JSON', () => {
  it('answers a JSON object for json_object, streamed and not', async () => {
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('Describe Paris as JSON'),
      response_format: { type: 'json_object' },
    })) {
      const value: unknown = JSON.parse(choice.message.content ?? '');
      expect(value).toBeTypeOf('object');
      expect(Array.isArray(value)).toBe(false);
    }
  });

  it('answers an instance of the json_schema, streamed and not', async () => {
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: ask('Rate Paris'),
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', strict: true, schema: answerSchema },
      },
    })) {
      expect(schemaErrors(answerSchema, JSON.parse(choice.message.content ?? ''))).toBe('');
    }
  });

  it('answers a JSON object when the system prompt asks for JSON', async () => {
    for (const choice of await bothWays({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Respond with a single valid JSON object.' },
        ...ask('Describe Paris'),
      ],
    })) {
      expect(JSON.parse(choice.message.content ?? '')).toBeTypeOf('object');
    }
  });
});
