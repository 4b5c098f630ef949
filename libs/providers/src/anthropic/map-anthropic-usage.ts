import type { Usage } from '../types/result';

/** The fields shared by Anthropic's `Usage` and the cumulative `MessageDeltaUsage`. */
export interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** Anthropic's three input counts are disjoint: the total is their sum. Thinking is inside output. */
export function mapAnthropicUsage(usage: AnthropicUsageLike | null | undefined): Usage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const thinking = usage?.output_tokens_details?.thinking_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + cacheRead,
    outputTokens: Math.max(0, (usage?.output_tokens ?? 0) - thinking),
    thinkingTokens: thinking,
    cachedInputTokens: cacheRead,
  };
}
