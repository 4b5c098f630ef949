import { randomBytes } from 'node:crypto';
import type {
  ChatCompletionResult,
  ChatStreamPart,
  FinishReason,
  SchemaLoweringReport,
  ToolCall,
  Usage,
} from '@agentdesk/providers';
import type { AnswerTextGate } from './answer-text-gate';
import { assertJsonAnswer, type RequestedJson } from './json-answer';

/** OpenAI's finish reasons; a refusal finishes with `stop` and carries `refusal` text. */
export function toOpenAIFinishReason(
  reason: FinishReason,
): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
  }
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

export const newCompletionId = () => `chatcmpl-${randomBytes(12).toString('base64url')}`;

/**
 * The answer's `message.content`. With a JSON response format it is the post-processed JSON — for
 * OpenAI strict schemas the restored value (the `null`s strict mode forced for optional properties
 * removed, a wrapped root unwrapped) — serialized, because that is what validates against the
 * caller's own schema. Text that did not parse as JSON is returned as the model wrote it.
 */
export function answerContent(result: Pick<ChatCompletionResult, 'text' | 'json'>): string {
  return result.json === undefined ? result.text : JSON.stringify(result.json);
}

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
  const refused = result.finishReason === 'refusal';
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
          content: refused || (result.text === '' && result.toolCalls.length) ? null : answerContent(result),
          refusal: refused ? result.text : null,
          annotations: [],
          ...(result.toolCalls.length && { tool_calls: result.toolCalls.map(toOpenAIToolCall) }),
        },
        logprobs: null,
        finish_reason: toOpenAIFinishReason(result.finishReason),
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
  /** When answer text may go out (held for refusals, JSON checks and restoring). */
  answerText: AnswerTextGate;
  /** Set once the role chunk went out; it goes with the first other chunk, when a refusal is known. */
  roleSent?: boolean;
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
  // OpenAI opens with the role; `content` is null when the answer is a refusal.
  const withRole = (chunks: object[], refusal = false): object[] => {
    if (context.roleSent || chunks.length === 0) return chunks;
    context.roleSent = true;
    return [chunk([choice({ role: 'assistant', content: refusal ? null : '', refusal: null })]), ...chunks];
  };
  const contentChunks = (texts: readonly string[]) =>
    texts.filter((text) => text !== '').map((text) => chunk([choice({ content: text })]));
  return { chunk, choice, withRole, contentChunks };
}

/** The held text that may go out now as content, e.g. once the refusal hold has lasted long enough. */
export function releaseHeldText(context: ChunkContext): object[] {
  const { withRole, contentChunks } = chunkBuilder(context);
  return withRole(contentChunks(context.answerText.releaseHeldForRefusal()));
}

/**
 * Turns one typed stream part into the `chat.completion.chunk`s OpenAI would send at that point
 * (possibly none). With `include_usage`, every chunk carries `usage: null` and a final chunk with
 * empty `choices` carries the usage, as OpenAI does. Text deltas are the model's raw text as
 * `content`, released by `context.answerText`: a refusal goes out as `refusal` deltas, and where
 * the streamed text is not the final JSON (restored by the schema lowering, fenced, or prose) the
 * final JSON arrives as one delta before the finish chunk, so streamed and non-streamed answers
 * carry the same content. A JSON format answered with something else throws
 * {@link InvalidModelOutputError} instead of finishing.
 */
export function toOpenAIChunks(part: ChatStreamPart, context: ChunkContext): object[] {
  const { chunk, choice, withRole, contentChunks } = chunkBuilder(context);
  switch (part.type) {
    case 'warnings':
      if (loweringRewritesAnswers(part.schemaLowering)) context.answerText.holdToEnd();
      return [];
    case 'text-delta':
      return withRole(contentChunks(context.answerText.accept(part.text)));
    case 'tool-call-start': {
      const index = context.toolIndexes.size;
      context.toolIndexes.set(part.index, index);
      return withRole([
        ...contentChunks(context.answerText.releaseHeldForRefusal()),
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
      const held = context.answerText.end();
      const refused = result.finishReason === 'refusal';
      if (!refused) assertJsonAnswer(result, context.requestedJson);
      const answer = refused
        ? (held.released ? [result.text] : held.pieces)
            .filter((text) => text !== '')
            .map((text) => chunk([choice({ refusal: text })]))
        : contentChunks(held.sendFinalJson ? [answerContent(result)] : held.pieces);
      return [
        ...withRole([...answer, chunk([choice({}, toOpenAIFinishReason(result.finishReason))])], refused),
        ...(context.includeUsage ? [chunk([], toOpenAIUsage(result.usage))] : []),
      ];
    }
  }
}
