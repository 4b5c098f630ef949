import type { UsageMetadata } from '@google/generative-ai';
import type { Usage } from '../types/result';

type GeminiUsageMetadata = UsageMetadata & { thoughtsTokenCount?: number };

/** `candidatesTokenCount` excludes thoughts; `promptTokenCount` includes cached content. */
export function mapGeminiUsage(usage: GeminiUsageMetadata | undefined): Usage {
  return {
    inputTokens: usage?.promptTokenCount ?? 0,
    outputTokens: usage?.candidatesTokenCount ?? 0,
    thinkingTokens: usage?.thoughtsTokenCount ?? 0,
    cachedInputTokens: usage?.cachedContentTokenCount ?? 0,
  };
}
