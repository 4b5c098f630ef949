import { describe, expect, it } from 'vitest';
import { chatCompletionRequestSchema } from './chat-completion-request';

const minimal = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] };

describe('chatCompletionRequestSchema', () => {
  it('accepts what the OpenAI SDK, LangChain and the AI SDK send', () => {
    const full = {
      model: 'claude-test',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'Be brief' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
          ],
          refusal: null,
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_completion_tokens: 100,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'out', strict: true, schema: { type: 'object' } },
      },
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' }, strict: true } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      n: 1,
      top_p: 1,
      frequency_penalty: 0,
      presence_penalty: 0,
      seed: 7,
      user: 'u',
      stop: ['\n'],
    };
    expect(chatCompletionRequestSchema.safeParse(full).success).toBe(true);
    expect(
      chatCompletionRequestSchema.safeParse({ ...minimal, temperature: null, stream: null, n: null }).success,
    ).toBe(true);
  });

  it('refuses unknown fields at every level, as OpenAI does', () => {
    expect(chatCompletionRequestSchema.safeParse({ ...minimal, foo: 1 }).error?.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['foo'],
    });
    expect(
      chatCompletionRequestSchema.safeParse({
        ...minimal,
        messages: [{ role: 'user', content: 'hi', extra: true }],
      }).error?.issues[0],
    ).toMatchObject({ code: 'unrecognized_keys', path: ['messages', 0] });
  });

  it('refuses what cannot be served: n > 1, empty messages, bad tool names, out-of-range temperature', () => {
    for (const bad of [
      { ...minimal, n: 2 },
      { ...minimal, messages: [] },
      { ...minimal, temperature: 3 },
      { ...minimal, tools: [{ type: 'function', function: { name: 'has space' } }] },
      { ...minimal, response_format: { type: 'xml' } },
      { ...minimal, messages: [{ role: 'robot', content: 'x' }] },
      { model: '', messages: minimal.messages },
    ]) {
      expect(chatCompletionRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
