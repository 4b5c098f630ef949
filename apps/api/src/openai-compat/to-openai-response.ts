import { randomBytes } from 'node:crypto';
import type {
  ChatCompletionResult,
  ChatStreamPart,
  FinishReason,
  SchemaLoweringReport,
  ToolCall,
  Usage,
} from '@agentdesk/providers';

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
  /** Set from the first part: text is held back and sent restored at the end (see `loweringRewritesAnswers`). */
  holdTextForRestore?: boolean;
}

/**
 * Turns one typed stream part into the `chat.completion.chunk`s OpenAI would send at that point
 * (possibly none). With `include_usage`, every chunk carries `usage: null` and a final chunk with
 * empty `choices` carries the usage, as OpenAI does. Text deltas are the model's raw text, except
 * when the schema lowering rewrites answers: then the restored JSON arrives as one delta before
 * the finish chunk, so streamed and non-streamed answers carry the same content.
 */
export function toOpenAIChunks(part: ChatStreamPart, context: ChunkContext): object[] {
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
  switch (part.type) {
    case 'warnings':
      context.holdTextForRestore = loweringRewritesAnswers(part.schemaLowering);
      return [chunk([choice({ role: 'assistant', content: '', refusal: null })])];
    case 'text-delta':
      return context.holdTextForRestore ? [] : [chunk([choice({ content: part.text })])];
    case 'tool-call-start': {
      const index = context.toolIndexes.size;
      context.toolIndexes.set(part.index, index);
      return [
        chunk([
          choice({
            tool_calls: [
              { index, id: part.id, type: 'function', function: { name: part.name, arguments: '' } },
            ],
          }),
        ]),
      ];
    }
    case 'tool-call-delta': {
      const index = context.toolIndexes.get(part.index) ?? 0;
      return [chunk([choice({ tool_calls: [{ index, function: { arguments: part.argumentsDelta } }] })])];
    }
    case 'tool-call':
    case 'usage':
      return [];
    case 'finish': {
      const chunks: object[] = [];
      const held = context.holdTextForRestore ? answerContent(part.result) : '';
      if (held !== '') chunks.push(chunk([choice({ content: held })]));
      chunks.push(chunk([choice({}, toOpenAIFinishReason(part.result.finishReason))]));
      if (context.includeUsage) chunks.push(chunk([], toOpenAIUsage(part.result.usage)));
      return chunks;
    }
  }
}
