import type { ChatCompletionResult, ChatStreamPart } from '@agentdesk/providers';
import { describe, expect, it } from 'vitest';
import {
  loweringRewritesAnswers,
  toOpenAIChunks,
  toOpenAICompletion,
  toOpenAIFinishReason,
  toOpenAIUsage,
  type ChunkContext,
} from './to-openai-response';

const usage = { inputTokens: 12, outputTokens: 5, thinkingTokens: 3, cachedInputTokens: 4 };

const result = (fields: Partial<ChatCompletionResult> = {}): ChatCompletionResult => ({
  provider: 'anthropic',
  model: 'claude-test-20260101',
  text: 'Hello',
  toolCalls: [],
  finishReason: 'stop',
  rawFinishReason: 'end_turn',
  usage,
  warnings: [],
  request: {},
  response: {},
  attempts: 1,
  ...fields,
});

const context = (fields: Partial<ChunkContext> = {}): ChunkContext => ({
  id: 'chatcmpl-1',
  created: 1_700_000_000,
  model: 'claude-test',
  includeUsage: false,
  toolIndexes: new Map(),
  ...fields,
});

const strictLowering = {
  target: 'openai-strict' as const,
  schema: {},
  changes: [
    {
      pointer: '/properties/note',
      keyword: 'required',
      action: 'made-required-nullable' as const,
      detail: '',
    },
  ],
};

describe('finish reasons and usage', () => {
  it('maps finish reasons to OpenAI’s four', () => {
    expect(
      ['stop', 'length', 'tool-calls', 'content-filter', 'refusal', 'other'].map((reason) =>
        toOpenAIFinishReason(reason as never),
      ),
    ).toEqual(['stop', 'length', 'tool_calls', 'content_filter', 'stop', 'stop']);
  });

  it('counts reasoning inside completion tokens and cached inside prompt tokens, as OpenAI does', () => {
    expect(toOpenAIUsage(usage)).toMatchObject({
      prompt_tokens: 12,
      completion_tokens: 8,
      total_tokens: 20,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 3 },
    });
  });
});

describe('toOpenAICompletion', () => {
  it('builds a chat.completion', () => {
    expect(toOpenAICompletion(result(), 'claude-test', 'chatcmpl-x')).toMatchObject({
      id: 'chatcmpl-x',
      object: 'chat.completion',
      model: 'claude-test-20260101',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello', refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 8 },
    });
  });

  it('carries tool calls with null content, and a refusal in `refusal`', () => {
    const calling = toOpenAICompletion(
      result({
        text: '',
        finishReason: 'tool-calls',
        toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      }),
      'claude-test',
    );
    expect(calling.choices[0]?.message).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      annotations: [],
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    });
    expect(calling.choices[0]?.finish_reason).toBe('tool_calls');
    const refused = toOpenAICompletion(
      result({ text: 'I cannot help with that', finishReason: 'refusal' }),
      'claude-test',
    );
    expect(refused.choices[0]?.message).toMatchObject({ content: null, refusal: 'I cannot help with that' });
  });

  it('answers structured output with the restored JSON, not the model’s raw text', () => {
    const completion = toOpenAICompletion(
      result({ text: '{"city": "Paris", "note": null}', json: { city: 'Paris' } }),
      'gpt-test',
    );
    expect(completion.choices[0]?.message.content).toBe('{"city":"Paris"}');
    // Text that is not JSON stays what the model wrote.
    expect(toOpenAICompletion(result({ text: 'not json' }), 'gpt-test').choices[0]?.message.content).toBe(
      'not json',
    );
  });
});

describe('toOpenAIChunks', () => {
  const finish = (fields: Partial<ChatCompletionResult> = {}): ChatStreamPart => ({
    type: 'finish',
    result: result(fields),
  });

  it('streams a role chunk, content deltas and a finish chunk, without usage unless asked', () => {
    const chunkContext = context();
    const chunks = [
      ...toOpenAIChunks({ type: 'warnings', warnings: [], request: {} }, chunkContext),
      ...toOpenAIChunks({ type: 'text-delta', text: 'Hel' }, chunkContext),
      ...toOpenAIChunks({ type: 'usage', usage }, chunkContext),
      ...toOpenAIChunks(finish(), chunkContext),
    ];
    expect(chunks).toEqual([
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'claude-test',
        system_fingerprint: null,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: '', refusal: null },
            logprobs: null,
            finish_reason: null,
          },
        ],
      },
      expect.objectContaining({
        choices: [{ index: 0, delta: { content: 'Hel' }, logprobs: null, finish_reason: null }],
      }),
      expect.objectContaining({ choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] }),
    ]);
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('with include_usage: usage null on every chunk, then a last chunk with empty choices and the usage', () => {
    const chunkContext = context({ includeUsage: true });
    const chunks = [
      ...toOpenAIChunks({ type: 'text-delta', text: 'x' }, chunkContext),
      ...toOpenAIChunks(finish(), chunkContext),
    ] as Array<{
      choices: unknown[];
      usage: unknown;
    }>;
    expect(chunks.map((chunk) => chunk.usage)).toEqual([null, null, toOpenAIUsage(usage)]);
    expect(chunks.at(-1)?.choices).toEqual([]);
  });

  it('numbers tool calls 0, 1… whatever the provider’s block indexes', () => {
    const chunkContext = context();
    const calls = [
      ...toOpenAIChunks({ type: 'tool-call-start', index: 1, id: 'toolu_a', name: 'first' }, chunkContext),
      ...toOpenAIChunks(
        { type: 'tool-call-delta', index: 1, id: 'toolu_a', argumentsDelta: '{"a":' },
        chunkContext,
      ),
      ...toOpenAIChunks({ type: 'tool-call-start', index: 3, id: 'toolu_b', name: 'second' }, chunkContext),
      ...toOpenAIChunks(
        { type: 'tool-call-delta', index: 1, id: 'toolu_a', argumentsDelta: '1}' },
        chunkContext,
      ),
      ...toOpenAIChunks(
        { type: 'tool-call', index: 1, toolCall: { id: 'toolu_a', name: 'first', arguments: '{"a":1}' } },
        chunkContext,
      ),
    ] as Array<{ choices: Array<{ delta: { tool_calls: unknown[] } }> }>;
    expect(calls.map((chunk) => chunk.choices[0]?.delta.tool_calls[0])).toEqual([
      { index: 0, id: 'toolu_a', type: 'function', function: { name: 'first', arguments: '' } },
      { index: 0, function: { arguments: '{"a":' } },
      { index: 1, id: 'toolu_b', type: 'function', function: { name: 'second', arguments: '' } },
      { index: 0, function: { arguments: '1}' } },
    ]);
  });

  it('holds text back when the lowering rewrites answers, and sends the restored JSON before the finish chunk', () => {
    const chunkContext = context();
    toOpenAIChunks(
      { type: 'warnings', warnings: [], request: {}, schemaLowering: strictLowering },
      chunkContext,
    );
    expect(
      toOpenAIChunks({ type: 'text-delta', text: '{"city":"Paris","note":null}' }, chunkContext),
    ).toEqual([]);
    const last = toOpenAIChunks(
      finish({ text: '{"city":"Paris","note":null}', json: { city: 'Paris' } }),
      chunkContext,
    ) as Array<{
      choices: Array<{ delta: unknown; finish_reason: unknown }>;
    }>;
    expect(last.map((chunk) => chunk.choices[0])).toEqual([
      { index: 0, delta: { content: '{"city":"Paris"}' }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'stop' },
    ]);
  });
});

describe('loweringRewritesAnswers', () => {
  it('is true only for changes restore() undoes: nullable optionals and a wrapped or retyped root', () => {
    expect(loweringRewritesAnswers(undefined)).toBe(false);
    expect(loweringRewritesAnswers(strictLowering)).toBe(true);
    const change = (pointer: string, keyword: string, action: 'added' | 'moved-to-description') => ({
      target: 'anthropic' as const,
      schema: {},
      changes: [{ pointer, keyword, action, detail: '' }],
    });
    expect(loweringRewritesAnswers(change('', 'type', 'added'))).toBe(true);
    expect(loweringRewritesAnswers(change('/properties/a', 'additionalProperties', 'added'))).toBe(false);
    expect(loweringRewritesAnswers(change('/properties/a', 'minLength', 'moved-to-description'))).toBe(false);
  });
});
