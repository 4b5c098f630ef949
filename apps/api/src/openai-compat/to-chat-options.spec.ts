import { describe, expect, it } from 'vitest';
import { chatCompletionRequestSchema, type ChatCompletionRequest } from './chat-completion-request';
import { toChatMessages, toChatOptions } from './to-chat-options';

const request = (fields: Partial<ChatCompletionRequest>): ChatCompletionRequest =>
  chatCompletionRequestSchema.parse({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'hi' }],
    ...fields,
  });

describe('toChatMessages', () => {
  it('maps every OpenAI role to the provider-neutral messages', () => {
    const messages = toChatMessages(
      request({
        messages: [
          { role: 'system', content: 'You are terse' },
          {
            role: 'developer',
            content: [
              { type: 'text', text: 'Use ' },
              { type: 'text', text: 'metric' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'sunny' }] },
          { role: 'tool', tool_call_id: 'call_unknown', content: 'orphan' },
        ],
      }).messages,
    );
    expect(messages).toEqual([
      { role: 'system', content: 'You are terse' },
      { role: 'system', content: 'Use metric' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw==' },
          { type: 'image', url: 'https://example.com/cat.png' },
        ],
      },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      // Gemini matches tool results by name, which OpenAI only carries on the assistant's call.
      { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: 'sunny' },
      { role: 'tool', toolCallId: 'call_unknown', toolName: 'unknown_tool', content: 'orphan' },
    ]);
  });
});

describe('toChatOptions', () => {
  it('passes sampling, structured output and tools on', () => {
    const options = toChatOptions(
      request({
        temperature: 0.5,
        max_tokens: 50,
        max_completion_tokens: 80,
        response_format: { type: 'json_object' },
        tools: [{ type: 'function', function: { name: 'lookup', description: 'Looks up' } }],
        tool_choice: { type: 'function', function: { name: 'lookup' } },
      }),
    );
    expect(options).toEqual({
      modelParams: { model: 'gpt-test' },
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.5,
      // The newer name wins, as with OpenAI.
      maxTokens: 80,
      responseFormat: { type: 'json_object' },
      tools: [{ name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: {} } }],
      toolChoice: { name: 'lookup' },
    });
  });

  it('leaves unset and null settings out', () => {
    expect(
      toChatOptions(request({ temperature: null, max_tokens: null, tools: [], tool_choice: 'auto' })),
    ).toEqual({
      modelParams: { model: 'gpt-test' },
      messages: [{ role: 'user', content: 'hi' }],
      toolChoice: 'auto',
    });
  });
});
