import { randomUUID } from 'node:crypto';
import type {
  ChatCompletionResult,
  ChatStreamPart,
  SchemaLoweringReport,
  ToolCall,
  Usage,
} from '@agentdesk/providers';
import type { AnswerTextGate } from './answer-text-gate';
import { answerContent, assertJsonAnswer, type RequestedJson } from './json-answer';

/**
 * OpenAI's finish reasons. A refusal finishes with `stop` when it is OpenAI's own (sent apart from
 * the content); Anthropic's refusal is a stop of its safety system, possibly after text went out
 * as content, which OpenAI's vocabulary calls `content_filter`.
 */
export function toOpenAIFinishReason(
  result: Pick<ChatCompletionResult, 'finishReason' | 'provider'>,
): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  switch (result.finishReason) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    case 'refusal':
      return result.provider === 'openai' ? 'stop' : 'content_filter';
    case 'stop':
    case 'other':
      return 'stop';
  }
}

/** Said when a provider stopped for a refusal without a word of its own. */
export const unexplainedRefusal = 'The model declined to answer this request.';

/**
 * The `refusal` of a finished answer, or undefined when it is none. On a refusal stop it is the text
 * the model wrote (Anthropic's refusals are text), else the refusal sent apart (OpenAI's, or
 * Anthropic's explanation), else {@link unexplainedRefusal}; on a safety stop, Gemini's `finishMessage`.
 */
export function refusalOf(result: Pick<ChatCompletionResult, 'finishReason' | 'text' | 'refusal'>) {
  if (result.finishReason !== 'refusal') return result.refusal;
  return result.text || result.refusal || unexplainedRefusal;
}

/** OpenAI counts cached tokens inside prompt tokens and reasoning tokens inside completion tokens. */
export function toOpenAIUsage(usage: Usage) {
  const completion = usage.outputTokens + usage.thinkingTokens;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: completion,
    total_tokens: usage.inputTokens + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.thinkingTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

// randomUUID draws from a cached entropy pool; randomBytes asks OpenSSL on every call (1 % of the
// gateway's CPU in the profile).
export const newCompletionId = () => `chatcmpl-${randomUUID().replaceAll('-', '')}`;

/**
 * True when `restore()` of this lowering can change the model's JSON (optional properties made
 * required and nullable, or a wrapped or retyped root), so streamed raw text would disagree with
 * the final value: such answers are sent as one restored delta at the end instead.
 */
export function loweringRewritesAnswers(report: SchemaLoweringReport | undefined): boolean {
  return (report?.changes ?? []).some(
    (change) =>
      change.action === 'made-required-nullable' ||
      (change.pointer === '' && change.keyword === 'type' && change.action === 'added'),
  );
}

const toOpenAIToolCall = (call: ToolCall) => ({
  id: call.id,
  type: 'function' as const,
  function: { name: call.name, arguments: call.arguments },
});

/** A `chat.completion` object, exactly as OpenAI shapes it. */
export function toOpenAICompletion(
  result: ChatCompletionResult,
  requestedModel: string,
  id = newCompletionId(),
) {
  const refusal = refusalOf(result);
  // A refusal stop's text is the refusal itself; otherwise text stays content beside a refusal.
  const withoutContent =
    result.finishReason === 'refusal' ||
    (result.text === '' && (result.toolCalls.length > 0 || refusal !== undefined));
  return {
    id,
    object: 'chat.completion' as const,
    created: Math.floor(Date.now() / 1000),
    model: result.model || requestedModel,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: withoutContent ? null : answerContent(result),
          refusal: refusal ?? null,
          annotations: [],
          ...(result.toolCalls.length && { tool_calls: result.toolCalls.map(toOpenAIToolCall) }),
        },
        logprobs: null,
        finish_reason: toOpenAIFinishReason(result),
      },
    ],
    usage: toOpenAIUsage(result.usage),
    service_tier: 'default',
    system_fingerprint: null,
  };
}

export interface ChunkContext {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
  /** Provider tool-call indexes (Anthropic counts text blocks too) → OpenAI's 0, 1, 2… */
  toolIndexes: Map<number, number>;
  /** The JSON response format asked for: a finished answer that is not JSON fails the stream. */
  requestedJson: RequestedJson;
  /** What of the answer's text goes out as content, and when (JSON checks, fences, restoring). */
  answerText: AnswerTextGate;
  /** Set once the role chunk went out; it goes with the first other chunk. */
  roleSent?: boolean;
  /** Set once a refusal delta went out: the refusal is then complete when the answer finishes. */
  refusalStreamed?: boolean;
}

/** Builders of the chunks of one stream. */
function chunkBuilder(context: ChunkContext) {
  const chunk = (choices: object[], usage: object | null = null) => ({
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: null,
    choices,
    ...(context.includeUsage && { usage }),
  });
  const choice = (delta: object, finishReason: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });
  // OpenAI opens with the role; `content` is null when the answer opens with a refusal.
  const withRole = (chunks: object[], refusal = false): object[] => {
    if (context.roleSent) return chunks;
    context.roleSent = true;
    return [chunk([choice({ role: 'assistant', content: refusal ? null : '', refusal: null })]), ...chunks];
  };
  return { chunk, choice, withRole };
}

/**
 * Turns one typed stream part into the `chat.completion.chunk`s OpenAI would send at that point
 * (possibly none). With `include_usage`, every chunk carries `usage: null` and a final chunk with
 * empty `choices` carries the usage, as OpenAI does. Text deltas go out as `content` as soon as
 * `context.answerText` lets them (at once, except to check a JSON answer's start or to restore it),
 * refusal deltas as `refusal` at once. A refusal the provider only announces at its stop (Anthropic's,
 * Gemini's safety stop with a message) goes out with the finish chunk. A JSON format answered with
 * something else throws {@link InvalidModelOutputError}: before any content, the route answers 502;
 * after, OpenAI's in-stream error event ends the stream.
 */
export function toOpenAIChunks(part: ChatStreamPart, context: ChunkContext): object[] {
  const { chunk, choice, withRole } = chunkBuilder(context);
  switch (part.type) {
    case 'warnings':
      if (loweringRewritesAnswers(part.schemaLowering)) context.answerText.holdToEnd();
      return [];
    case 'text-delta': {
      const content = context.answerText.accept(part.text);
      return content === '' ? [] : withRole([chunk([choice({ content })])]);
    }
    case 'refusal-delta':
      context.refusalStreamed = true;
      return withRole([chunk([choice({ refusal: part.text })])], true);
    case 'tool-call-start': {
      const index = context.toolIndexes.size;
      context.toolIndexes.set(part.index, index);
      return withRole([
        chunk([
          choice({
            tool_calls: [
              { index, id: part.id, type: 'function', function: { name: part.name, arguments: '' } },
            ],
          }),
        ]),
      ]);
    }
    case 'tool-call-delta': {
      const index = context.toolIndexes.get(part.index) ?? 0;
      return [chunk([choice({ tool_calls: [{ index, function: { arguments: part.argumentsDelta } }] })])];
    }
    case 'tool-call':
    case 'usage':
      return [];
    case 'finish': {
      const result = part.result;
      const finishReason = toOpenAIFinishReason(result);
      const usage = context.includeUsage ? [chunk([], toOpenAIUsage(result.usage))] : [];
      if (context.refusalStreamed) return [chunk([choice({}, finishReason)]), ...usage];
      const refusal = refusalOf(result);
      if (refusal !== undefined) {
        return [...withRole([chunk([choice({ refusal }, finishReason)])], true), ...usage];
      }
      assertJsonAnswer(result, context.requestedJson);
      const content = context.answerText.finalContent(result);
      return [
        ...withRole([
          ...(content === '' ? [] : [chunk([choice({ content })])]),
          chunk([choice({}, finishReason)]),
        ]),
        ...usage,
      ];
    }
  }
}
