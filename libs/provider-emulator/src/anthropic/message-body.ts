import { randomToken } from '../ids';
import type { AnswerPlan } from '../reply/reply-plan';
import type { ResolvedUsage } from '../reply/usage';
import type { AnthropicVersion } from './validate-request';

/** Request-level values repeated in the message and its stream events. */
export interface MessageIdentity {
  id: string;
  model: string;
  version: AnthropicVersion;
}

/** A content block of the answer, tool ids already assigned. */
export type AnswerBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; inputJson: string };

/** Text first (refusals carry their explanation as text), then one block per tool call. */
export function answerBlocks(plan: AnswerPlan): AnswerBlock[] {
  const blocks: AnswerBlock[] = [];
  const text = plan.refusal ?? plan.text;
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of plan.toolCalls) {
    blocks.push({
      type: 'tool_use',
      id: call.id ?? `toolu_01${randomToken(22)}`,
      name: call.name,
      input: call.arguments,
      inputJson: call.argumentsJson,
    });
  }
  return blocks;
}

export function anthropicStopReason(plan: AnswerPlan): string {
  if (plan.rawFinishReason !== undefined) return plan.rawFinishReason;
  switch (plan.finish) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
    case 'refusal':
      return 'refusal';
  }
}

/** `stop_details` exists from 2026-10-21 on and is only non-null for refusals. */
export function stopDetails(plan: AnswerPlan): Record<string, unknown> | null {
  return anthropicStopReason(plan) === 'refusal'
    ? { type: 'refusal', category: null, explanation: plan.refusal ?? null }
    : null;
}

/** `input_tokens` excludes cache reads and writes: the three counts are disjoint. */
export function uncachedInputTokens(usage: ResolvedUsage): number {
  return Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheCreationInputTokens);
}

/** The full `usage` object of a message. */
export function messageUsage(
  usage: ResolvedUsage,
  version: AnthropicVersion,
  outputTokens = usage.outputTokens,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    input_tokens: uncachedInputTokens(usage),
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cachedInputTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: usage.cacheCreationInputTokens,
      ephemeral_1h_input_tokens: 0,
    },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
  if (version === '2026-10-21') {
    base.output_tokens_details = { thinking_tokens: Math.min(usage.reasoningTokens, outputTokens) };
    base.server_tool_use = null;
    base.inference_geo = null;
  }
  return base;
}

/** Wire form of a content block. */
export function blockJson(block: AnswerBlock): Record<string, unknown> {
  return block.type === 'text'
    ? { type: 'text', text: block.text }
    : { type: 'tool_use', id: block.id, name: block.name, input: block.input };
}

/** The `message` object of a non-streamed answer. */
export function messageBody(plan: AnswerPlan, identity: MessageIdentity): Record<string, unknown> {
  const message: Record<string, unknown> = {
    id: identity.id,
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content: answerBlocks(plan).map(blockJson),
    stop_reason: anthropicStopReason(plan),
    stop_sequence: null,
    usage: messageUsage(plan.usage, identity.version),
  };
  if (identity.version === '2026-10-21') {
    message.stop_details = stopDetails(plan);
    message.container = null;
    message.diagnostics = null;
  }
  return message;
}
