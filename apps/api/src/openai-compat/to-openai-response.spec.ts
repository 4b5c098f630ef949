import type { ChatCompletionResult, ChatStreamPart } from '@agentdesk/providers';
import { describe, expect, it } from 'vitest';
import {
  loweringRewritesAnswers,
  toOpenAIChunks,
  toOpenAICompletion,
  toOpenAIFinishReason,
  toOpenAIUsage,
  releaseHeldText,
  type ChunkContext,
} from './to-openai-response';
import { AnswerTextGate, refusalHoldCharacters } from './answer-text-gate';
import { InvalidModelOutputError } from './json-answer';

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

/** Gemini by default: its refusals carry no text, so nothing is held for them. */
const context = (fields: Partial<ChunkContext> = {}): ChunkContext => ({
  id: 'chatcmpl-1',
  created: 1_700_000_000,
  model: 'claude-test',
  includeUsage: false,
  toolIndexes: new Map(),
  requestedJson: undefined,
  answerText: new AnswerTextGate({ provider: 'gemini', requestedJson: fields.requestedJson }),
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
    expect(chunks.map((chunk) => chunk.usage)).toEqual([null, null, null, toOpenAIUsage(usage)]);
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
    ] as Array<{ choices: Array<{ delta: { role?: string; tool_calls: unknown[] } }> }>;
    expect(calls[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(calls.slice(1).map((chunk) => chunk.choices[0]?.delta.tool_calls[0])).toEqual([
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
      {
        index: 0,
        delta: { role: 'assistant', content: '', refusal: null },
        logprobs: null,
        finish_reason: null,
      },
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

describe('toOpenAIChunks: refusals and JSON', () => {
  type Chunk = { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }> };
  const deltas = (chunks: object[]) =>
    (chunks as Chunk[]).flatMap((chunk) => chunk.choices.map((c) => c.delta));
  const run = (chunkContext: ChunkContext, texts: string[], final: Partial<ChatCompletionResult>) => {
    const perPart = [
      toOpenAIChunks({ type: 'warnings', warnings: [], request: {} }, chunkContext),
      ...texts.map((text) => toOpenAIChunks({ type: 'text-delta', text }, chunkContext)),
    ];
    const finish = toOpenAIChunks({ type: 'finish', result: result(final) }, chunkContext);
    return { perPart, finish, all: deltas([...perPart.flat(), ...finish]) };
  };
  const anthropic = (fields: Partial<ChunkContext> = {}) =>
    context({
      ...fields,
      answerText: new AnswerTextGate({ provider: 'anthropic', requestedJson: fields.requestedJson }),
    });

  it('sends a refusal as refusal deltas after a role chunk with null content', () => {
    const { perPart, all } = run(anthropic(), ['I cannot ', 'help.'], {
      text: 'I cannot help.',
      finishReason: 'refusal',
    });
    expect(perPart.flat()).toEqual([]);
    expect(all).toEqual([
      { role: 'assistant', content: null, refusal: null },
      { refusal: 'I cannot ' },
      { refusal: 'help.' },
      {},
    ]);
  });

  it('sends the whole text as refusal when a long answer ends as a refusal after streaming', () => {
    const long = 'x'.repeat(refusalHoldCharacters + 1);
    const { all } = run(anthropic(), [long, 'y'], { text: `${long}y`, finishReason: 'refusal' });
    expect(all).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: long },
      { content: 'y' },
      { refusal: `${long}y` },
      {},
    ]);
  });

  it('sends short held text as content at the end, and streams longer text once past the hold', () => {
    expect(run(anthropic(), ['Hi ', 'there'], { text: 'Hi there' }).all).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: 'Hi ' },
      { content: 'there' },
      {},
    ]);
    const long = 'x'.repeat(refusalHoldCharacters);
    const { perPart } = run(anthropic(), [long, 'y', 'z'], { text: `${long}yz` });
    expect(perPart.map((chunks) => deltas(chunks))).toEqual([
      [],
      [],
      [{ role: 'assistant', content: '', refusal: null }, { content: long }, { content: 'y' }],
      [{ content: 'z' }],
    ]);
  });

  it('lets held text out before a tool call: an answer with tool calls is no refusal', () => {
    const chunkContext = anthropic();
    expect(toOpenAIChunks({ type: 'text-delta', text: 'Let me check.' }, chunkContext)).toEqual([]);
    const chunks = toOpenAIChunks(
      { type: 'tool-call-start', index: 1, id: 'toolu_1', name: 'x' },
      chunkContext,
    );
    expect(deltas(chunks).slice(0, 2)).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: 'Let me check.' },
    ]);
  });

  it('refuses to finish a json_object stream whose answer is prose, without sending any of it', () => {
    const chunkContext = context({ requestedJson: 'json_object' });
    for (const text of ['Sure! ', 'Here it is'])
      expect(toOpenAIChunks({ type: 'text-delta', text }, chunkContext)).toEqual([]);
    const prose = result({ text: 'Sure! Here it is', validation: { valid: false, errors: [] } });
    expect(() => toOpenAIChunks({ type: 'finish', result: prose }, chunkContext)).toThrow(
      InvalidModelOutputError,
    );
  });

  it('keeps text whose JSON start is still unknown held, even past the refusal wait', () => {
    const chunkContext = anthropic({ requestedJson: 'json_object' });
    expect(toOpenAIChunks({ type: 'text-delta', text: '  ' }, chunkContext)).toEqual([]);
    expect(chunkContext.answerText.holdingForRefusal).toBe(false);
    expect(releaseHeldText(chunkContext)).toEqual([]);
    expect(toOpenAIChunks({ type: 'text-delta', text: '{"a":1}' }, chunkContext)).toEqual([]);
    expect(chunkContext.answerText.holdingForRefusal).toBe(true);
    expect(deltas(releaseHeldText(chunkContext))).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: '  ' },
      { content: '{"a":1}' },
    ]);
  });

  it('streams JSON that starts like JSON, and sends a fenced answer as the parsed JSON at the end', () => {
    const live = run(context({ requestedJson: 'json_object' }), ['{"a":', '1}'], {
      text: '{"a":1}',
      json: { a: 1 },
    });
    expect(live.perPart.map((chunks) => chunks.length)).toEqual([0, 2, 1]);
    const fenced = run(context({ requestedJson: 'json_object' }), ['```json\n{"a":1}', '\n```'], {
      text: '```json\n{"a":1}\n```',
      json: { a: 1 },
    });
    expect(fenced.all).toEqual([
      { role: 'assistant', content: '', refusal: null },
      { content: '{"a":1}' },
      {},
    ]);
  });
});
