import fc from 'fast-check';
import type { ChatCompletionResult, ChatStreamPart, ProviderName } from '@agentdesk/providers';
import { describe, expect, it } from 'vitest';
import {
  loweringRewritesAnswers,
  toOpenAIChunks,
  toOpenAICompletion,
  toOpenAIFinishReason,
  toOpenAIUsage,
  unexplainedRefusal,
  type ChunkContext,
} from './to-openai-response';
import { AnswerTextGate, answerTextPolicyFor } from './answer-text-gate';
import { InvalidModelOutputError, type RequestedJson } from './json-answer';

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

/** The route's gate for a request asking for `requestedJson` on `provider`. */
const gateFor = (requestedJson: RequestedJson, provider: ProviderName = 'openai') =>
  new AnswerTextGate(
    answerTextPolicyFor(
      { model: 'm', ...(requestedJson && { response_format: { type: 'json_object' as const } }) },
      provider,
    ),
  );

const context = (fields: Partial<ChunkContext> = {}): ChunkContext => ({
  id: 'chatcmpl-1',
  created: 1_700_000_000,
  model: 'claude-test',
  includeUsage: false,
  toolIndexes: new Map(),
  requestedJson: undefined,
  answerText: gateFor(fields.requestedJson),
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
  it('maps finish reasons to OpenAI’s four; a refusal is `stop` only on OpenAI, which sends it apart', () => {
    const reasons = ['stop', 'length', 'tool-calls', 'content-filter', 'refusal', 'other'] as const;
    const mapped = (provider: ProviderName) =>
      reasons.map((finishReason) => toOpenAIFinishReason({ finishReason, provider }));
    expect(mapped('openai')).toEqual(['stop', 'length', 'tool_calls', 'content_filter', 'stop', 'stop']);
    for (const provider of ['anthropic', 'gemini'] as const)
      expect(mapped(provider)).toEqual([
        'stop',
        'length',
        'tool_calls',
        'content_filter',
        'content_filter',
        'stop',
      ]);
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
  });

  it('answers refusals with content null and the refusal, as each provider gives it', () => {
    const message = (fields: Partial<ChatCompletionResult>) =>
      toOpenAICompletion(result(fields), 'm').choices[0];
    // OpenAI: the refusal apart from the (empty) text, finish stop.
    expect(message({ provider: 'openai', text: '', refusal: 'No.', finishReason: 'refusal' })).toMatchObject({
      message: { content: null, refusal: 'No.' },
      finish_reason: 'stop',
    });
    // Anthropic: the text was the refusal (its explanation only stands in for no text).
    const anthropic = { provider: 'anthropic' as const, finishReason: 'refusal' as const };
    expect(message({ ...anthropic, text: 'I cannot.', refusal: 'Policy.' })).toMatchObject({
      message: { content: null, refusal: 'I cannot.' },
      finish_reason: 'content_filter',
    });
    expect(message({ ...anthropic, text: '', refusal: 'Policy.' })?.message.refusal).toBe('Policy.');
    expect(message({ ...anthropic, text: '' })?.message.refusal).toBe(unexplainedRefusal);
    // Gemini: a safety stop with its finishMessage; without one, as before.
    const gemini = { provider: 'gemini' as const, finishReason: 'content-filter' as const, text: '' };
    expect(message({ ...gemini, refusal: 'Blocked.' })).toMatchObject({
      message: { content: null, refusal: 'Blocked.' },
      finish_reason: 'content_filter',
    });
    expect(message(gemini)?.message).toMatchObject({ content: '', refusal: null });
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
    (chunks as Chunk[]).flatMap((chunk) => chunk.choices.map((c) => [c.delta, c.finish_reason]));
  const textDeltas = (chunkContext: ChunkContext, texts: string[]) =>
    texts.map((text) => deltas(toOpenAIChunks({ type: 'text-delta', text }, chunkContext)));
  const finishWith = (chunkContext: ChunkContext, fields: Partial<ChatCompletionResult>) =>
    deltas(toOpenAIChunks({ type: 'finish', result: result(fields) }, chunkContext));
  const role = (content: '' | null) => [{ role: 'assistant', content, refusal: null }, null];

  it('sends every provider’s first text delta as content at once, whatever it says', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ProviderName>('openai', 'anthropic', 'gemini'),
        fc.string({ minLength: 1 }),
        (provider, text) => {
          const chunkContext = context({ answerText: gateFor(undefined, provider) });
          expect(textDeltas(chunkContext, [text])).toEqual([[role(''), [{ content: text }, null]]]);
        },
      ),
    );
  });

  it('forwards OpenAI’s refusal deltas as refusal deltas at once, after a role chunk with null content', () => {
    const chunkContext = context();
    const refusal = (text: string) => deltas(toOpenAIChunks({ type: 'refusal-delta', text }, chunkContext));
    expect(refusal('I cannot ')).toEqual([role(null), [{ refusal: 'I cannot ' }, null]]);
    expect(refusal('help.')).toEqual([[{ refusal: 'help.' }, null]]);
    const finished = finishWith(chunkContext, {
      provider: 'openai',
      text: '',
      refusal: 'I cannot help.',
      finishReason: 'refusal',
    });
    expect(finished).toEqual([[{}, 'stop']]);
  });

  it('streams Anthropic’s text as content, and ends a refusal with its text as refusal and content_filter', () => {
    const chunkContext = context({ answerText: gateFor(undefined, 'anthropic') });
    expect(textDeltas(chunkContext, ['I cannot ', 'help.'])).toEqual([
      [role(''), [{ content: 'I cannot ' }, null]],
      [[{ content: 'help.' }, null]],
    ]);
    const finished = finishWith(chunkContext, {
      text: 'I cannot help.',
      refusal: 'Policy.',
      finishReason: 'refusal',
    });
    expect(finished).toEqual([[{ refusal: 'I cannot help.' }, 'content_filter']]);
    // With no text at all: a role chunk with null content, and a statement as the refusal.
    expect(finishWith(context(), { text: '', finishReason: 'refusal' })).toEqual([
      role(null),
      [{ refusal: unexplainedRefusal }, 'content_filter'],
    ]);
  });

  it('ends Gemini’s safety stop with its finishMessage as the refusal', () => {
    expect(
      finishWith(context(), {
        provider: 'gemini',
        text: '',
        finishReason: 'content-filter',
        refusal: 'Blocked.',
      }),
    ).toEqual([role(null), [{ refusal: 'Blocked.' }, 'content_filter']]);
  });

  it('refuses a json_object stream whose answer starts as prose at once, having sent nothing', () => {
    const chunkContext = context({ requestedJson: 'json_object' });
    expect(toOpenAIChunks({ type: 'text-delta', text: '  ' }, chunkContext)).toEqual([]);
    expect(() => toOpenAIChunks({ type: 'text-delta', text: 'Sure! ' }, chunkContext)).toThrow(
      InvalidModelOutputError,
    );
  });

  it('holds Anthropic’s prose under json_object: it ends as a refusal, or as the error', () => {
    const refusing = context({
      requestedJson: 'json_object',
      answerText: gateFor('json_object', 'anthropic'),
    });
    expect(textDeltas(refusing, ['I cannot ', 'do that.'])).toEqual([[], []]);
    expect(finishWith(refusing, { text: 'I cannot do that.', finishReason: 'refusal' })).toEqual([
      role(null),
      [{ refusal: 'I cannot do that.' }, 'content_filter'],
    ]);
    const chatting = context({
      requestedJson: 'json_object',
      answerText: gateFor('json_object', 'anthropic'),
    });
    textDeltas(chatting, ['Sure!']);
    expect(() => finishWith(chatting, { text: 'Sure!' })).toThrow(InvalidModelOutputError);
  });

  it('streams JSON from its first `{`, and a fenced answer without its fences', () => {
    const live = context({ requestedJson: 'json_object' });
    expect(textDeltas(live, ['{"a":', '1}'])).toEqual([
      [role(''), [{ content: '{"a":' }, null]],
      [[{ content: '1}' }, null]],
    ]);
    expect(finishWith(live, { text: '{"a":1}', json: { a: 1 } })).toEqual([[{}, 'stop']]);
    const fenced = context({ requestedJson: 'json_object' });
    expect(textDeltas(fenced, ['```json\n{"a":', '1}\n`', '``'])).toEqual([
      [role(''), [{ content: '{"a":' }, null]],
      [[{ content: '1}' }, null]],
      [],
    ]);
    expect(finishWith(fenced, { text: '```json\n{"a":1}\n```', json: { a: 1 } })).toEqual([[{}, 'stop']]);
  });

  it('fails a streamed JSON answer that went wrong after its start (the route ends it with the error event)', () => {
    const chunkContext = context({ requestedJson: 'json_object' });
    textDeltas(chunkContext, ['{"a":', ' oops']);
    expect(() =>
      finishWith(chunkContext, { text: '{"a": oops', validation: { valid: false, errors: [] } }),
    ).toThrow(InvalidModelOutputError);
  });
});
