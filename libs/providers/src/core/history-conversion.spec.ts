import { describe, expect, it } from 'vitest';
import { convertToAnthropicMessages } from '../anthropic/convert-to-anthropic-messages';
import { convertToGeminiContents } from '../gemini/convert-to-gemini-contents';
import { convertToOpenAIMessages } from '../openai/convert-to-openai-messages';
import type { ChatMessage } from '../types/messages';
import type { ChatWarning } from '../types/result';

/** A history as a Gemini session would have stored it (synthesized ids), replayed on other providers. */
const history: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_a1', name: 'weather', arguments: '{"city":"Paris"}' },
      { id: 'call.b2', name: 'weather', arguments: '{"city":"Rome"}' },
    ],
  },
  { role: 'tool', toolCallId: 'call_a1', toolName: 'weather', content: '18C' },
  { role: 'tool', toolCallId: 'call.b2', toolName: 'weather', content: 'boom', isError: true },
  { role: 'assistant', content: 'Paris 18C; Rome unknown.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'And this?' },
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
    ],
  },
];

describe('one history, three providers', () => {
  it('OpenAI keeps the system role inline and one tool message per result', () => {
    expect(convertToOpenAIMessages(history)).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call.b2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a1', content: '18C' },
      { role: 'tool', tool_call_id: 'call.b2', content: 'boom' },
      { role: 'assistant', content: 'Paris 18C; Rome unknown.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
    ]);
  });

  it('Anthropic lifts the system prompt, merges tool results into one user turn and sanitizes ids', () => {
    expect(convertToAnthropicMessages(history)).toEqual({
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_a1', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_b2', name: 'weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a1', content: '18C' },
            { type: 'tool_result', tool_use_id: 'call_b2', content: 'boom', is_error: true },
          ],
        },
        { role: 'assistant', content: 'Paris 18C; Rome unknown.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
    });
  });

  it('Gemini uses systemInstruction, model/user roles and function responses matched by name', () => {
    const warnings: ChatWarning[] = [];
    expect(convertToGeminiContents(history, warnings)).toEqual({
      systemInstruction: { role: 'system', parts: [{ text: 'You are terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { content: '18C' } } },
            { functionResponse: { name: 'weather', response: { error: 'boom' } } },
          ],
        },
        { role: 'model', parts: [{ text: 'Paris 18C; Rome unknown.' }] },
        {
          role: 'user',
          parts: [{ text: 'And this?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
        },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('keeps unparseable tool arguments instead of dropping them', () => {
    const broken: ChatMessage[] = [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a":' }] },
    ];
    const anthropic = convertToAnthropicMessages(broken).messages[1];
    expect(anthropic).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'c1', name: 'f', input: { _raw: '{"a":' } }],
    });
  });
});
