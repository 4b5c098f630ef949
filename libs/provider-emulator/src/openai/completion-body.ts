import { randomToken } from '../ids';
import type { AnswerPlan } from '../reply/reply-plan';
import type { ResolvedUsage } from '../reply/usage';

/** Request-level values repeated in every completion object and chunk. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/** OpenAI's usage object, detail fields included. */
export function openAiUsage(usage: ResolvedUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Maps the neutral finish reason; refusals end with `stop` on OpenAI. */
export function openAiFinishReason(plan: AnswerPlan): string {
  if (plan.rawFinishReason !== undefined) return plan.rawFinishReason;
  switch (plan.finish) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'tool-calls':
      return 'tool_calls';
    case 'stop':
    case 'refusal':
      return 'stop';
  }
}

/** Gives every planned tool call an OpenAI-style id. */
export function toolCallIds(plan: AnswerPlan): string[] {
  return plan.toolCalls.map((call) => call.id ?? `call_${randomToken(24)}`);
}

/** The `chat.completion` object for a non-streamed answer. */
export function completionBody(plan: AnswerPlan, identity: CompletionIdentity): Record<string, unknown> {
  const ids = toolCallIds(plan);
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.refusal !== undefined || (plan.text === '' && plan.toolCalls.length > 0) ? null : plan.text,
    refusal: plan.refusal ?? null,
    annotations: [],
  };
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call, index) => ({
      id: ids[index],
      type: 'function',
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: openAiFinishReason(plan) }],
    usage: openAiUsage(plan.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_emulator',
  };
}
