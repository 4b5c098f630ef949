import { zodResponseFormat } from 'openai/helpers/zod';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { providerModels, type CompatContext } from './compat-context';

const weatherTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The current weather of a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};

/** A strict schema with an optional property: OpenAI strict needs it required + nullable, and the answer restored. */
const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, temperature: { type: 'number' }, note: { type: 'string' } },
  required: ['city', 'temperature'],
  additionalProperties: false,
};

/** The official `openai` SDK against the API: plain, streamed, structured, tools. */
export function describeOpenAISdkCases(context: () => CompatContext): void {
  describe.each(providerModels)('openai SDK on $model ($provider)', ({ provider, model }) => {
    it('answers a chat completion with usage and the request id', async () => {
      const { openai, test } = context();
      test.emulator.script({
        kind: 'text',
        text: `Hello from ${provider}`,
        usage: { inputTokens: 11, outputTokens: 4 },
      });
      const { data: completion, response } = await openai()
        .chat.completions.create({
          model,
          messages: [
            { role: 'system', content: 'Be nice' },
            { role: 'user', content: 'Hi' },
          ],
        })
        .withResponse();
      expect(completion).toMatchObject({
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `Hello from ${provider}`, refusal: null },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
      });
      expect(completion.id).toMatch(/^chatcmpl-/);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      // The provider behind the model got the call, in its own protocol.
      expect(test.emulator.requests.map((request) => request.provider)).toEqual([provider]);
    });

    it('streams chunks whose text accumulates to the answer, with the usage chunk last', async () => {
      const { openai, test } = context();
      test.emulator.script({
        kind: 'text',
        text: 'Streaming through AgentDesk',
        chunkSize: 5,
        usage: { inputTokens: 9, outputTokens: 6 },
      });
      const { data: stream, response } = await openai()
        .chat.completions.create({
          model,
          messages: [{ role: 'user', content: 'Stream' }],
          stream: true,
          stream_options: { include_usage: true },
        })
        .withResponse();
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      let text = '';
      const chunks = [];
      for await (const chunk of stream) {
        chunks.push(chunk);
        text += chunk.choices[0]?.delta.content ?? '';
      }
      expect(text).toBe('Streaming through AgentDesk');
      expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(1);
      expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
      expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
      expect(chunks.at(-1)).toMatchObject({
        choices: [],
        usage: { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 },
      });
      expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    });

    it('honours response_format json_schema (strict, with an optional field): content is the restored JSON', async () => {
      const { openai, test } = context();
      // OpenAI strict makes `note` required and nullable, so the model there answers null for it.
      test.emulator.script({
        kind: 'json',
        value:
          provider === 'openai'
            ? { city: 'Paris', temperature: 21, note: null }
            : { city: 'Paris', temperature: 21 },
      });
      const completion = await openai().chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'weather', strict: true, schema: weatherSchema },
        },
      });
      // What a client validating against its own schema needs: no `note: null` it never allowed.
      expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({
        city: 'Paris',
        temperature: 21,
      });
      if (provider === 'openai') {
        const sent = test.emulator.lastRequest(provider)?.body as {
          response_format: { json_schema: { schema: { required: string[] } } };
        };
        expect(sent.response_format.json_schema.schema.required).toEqual(['city', 'temperature', 'note']);
      }
    });

    it('streams structured output that parses as the restored JSON', async () => {
      const { openai, test } = context();
      test.emulator.script({
        kind: 'json',
        chunkSize: 6,
        value:
          provider === 'openai'
            ? { city: 'Oslo', temperature: -3, note: null }
            : { city: 'Oslo', temperature: -3 },
      });
      const stream = await openai().chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'weather', strict: true, schema: weatherSchema },
        },
        stream: true,
      });
      const deltas: string[] = [];
      for await (const chunk of stream)
        if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
      expect(JSON.parse(deltas.join(''))).toEqual({ city: 'Oslo', temperature: -3 });
      // Where restoring rewrites the answer (OpenAI strict), it arrives as one restored delta;
      // elsewhere the model's text streams as it comes.
      if (provider === 'openai') expect(deltas).toHaveLength(1);
      else expect(deltas.length).toBeGreaterThan(1);
    });

    it('parses structured output with the SDK’s zod helper', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'json', value: { city: 'Rome', tags: ['sunny', 'warm'] } });
      const completion = await openai().chat.completions.parse({
        model,
        messages: [{ role: 'user', content: 'Describe Rome' }],
        response_format: zodResponseFormat(z.object({ city: z.string(), tags: z.array(z.string()) }), 'city'),
      });
      expect(completion.choices[0]?.message.parsed).toEqual({ city: 'Rome', tags: ['sunny', 'warm'] });
    });

    it('honours response_format json_object', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'json', value: { answer: 42 } });
      const completion = await openai().chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Answer in JSON' }],
        response_format: { type: 'json_object' },
      });
      expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ answer: 42 });
    });

    it('reports a refusal as OpenAI does (Anthropic’s refusal stop and Gemini’s safety stop as content_filter)', async () => {
      const { openai, test } = context();
      test.emulator.script({ kind: 'refusal', refusal: 'I cannot help with that.' });
      const completion = await openai().chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Something bad' }],
      });
      const choice = completion.choices[0];
      expect(choice?.finish_reason).toBe(provider === 'openai' ? 'stop' : 'content_filter');
      expect(choice?.message).toMatchObject({ content: null, refusal: 'I cannot help with that.' });
    });

    it('round-trips a tool call: the call, then the tool result back to the model', async () => {
      const { openai, test } = context();
      test.emulator.script(
        { kind: 'tool-calls', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
        { kind: 'text', text: 'It is sunny in Paris.' },
      );
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const first = await openai().chat.completions.create({ model, messages, tools: [weatherTool] });
      const choice = first.choices[0];
      expect(choice?.finish_reason).toBe('tool_calls');
      expect(choice?.message.content).toBeNull();
      const call = choice?.message.tool_calls?.[0];
      if (call?.type !== 'function') throw new Error('expected a function call');
      expect(call.function.name).toBe('get_weather');
      expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
      expect(call.id).toBeTruthy();

      messages.push(choice!.message, {
        role: 'tool',
        tool_call_id: call.id,
        content: '{"sky":"clear","celsius":24}',
      });
      const second = await openai().chat.completions.create({ model, messages, tools: [weatherTool] });
      expect(second.choices[0]?.message.content).toBe('It is sunny in Paris.');
      // The provider received the result of that call in its own format.
      expect(JSON.stringify(test.emulator.lastRequest(provider)?.body)).toContain('celsius');
    });

    it('streams tool calls that the SDK assembles', async () => {
      const { openai, test } = context();
      test.emulator.script({
        kind: 'tool-calls',
        chunkSize: 4,
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Lyon' } },
        ],
      });
      const stream = openai().chat.completions.stream({
        model,
        messages: [{ role: 'user', content: 'Paris and Lyon?' }],
        tools: [weatherTool],
      });
      const completion = await stream.finalChatCompletion();
      expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
      const calls = (completion.choices[0]?.message.tool_calls ?? []).map((call) =>
        call.type === 'function' ? JSON.parse(call.function.arguments) : undefined,
      );
      expect(calls).toEqual([{ city: 'Paris' }, { city: 'Lyon' }]);
    });
  });

  describe('openai SDK wire details', () => {
    it('sends SSE exactly as OpenAI: data lines only, ending with data: [DONE]', async () => {
      const { baseURL, key, test } = context();
      test.emulator.script({ kind: 'text', text: 'Hi', chunkSize: 1 });
      const response = await fetch(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-test',
          messages: [{ role: 'user', content: 'Hi' }],
          stream: true,
        }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      const body = await response.text();
      const frames = body.split('\n\n').filter((frame) => frame !== '');
      expect(frames.every((frame) => frame.startsWith('data: '))).toBe(true);
      expect(frames.at(-1)).toBe('data: [DONE]');
      expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
      // Without include_usage, chunks carry no usage field at all.
      expect(body).not.toContain('"usage"');
    });

    it('lists the models this server can name', async () => {
      const { openai } = context();
      const models = [];
      for await (const model of openai().models.list()) models.push(model);
      expect(models).toEqual([{ id: 'gpt-test', object: 'model', created: 0, owned_by: 'openai' }]);
    });
  });
}
