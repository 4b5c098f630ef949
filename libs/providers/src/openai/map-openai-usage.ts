import type { CompletionUsage } from 'openai/resources/completions';
import type { Usage } from '../types/result';

/** `prompt_tokens` already includes cached tokens; `completion_tokens` includes reasoning tokens. */
export function mapOpenAIUsage(usage: CompletionUsage | null | undefined): Usage {
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: Math.max(0, (usage?.completion_tokens ?? 0) - reasoning),
    thinkingTokens: reasoning,
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
  };
}
