import type { Usage } from '../types/result';

export function addUsage(first: Usage, second: Usage): Usage {
  return {
    inputTokens: first.inputTokens + second.inputTokens,
    outputTokens: first.outputTokens + second.outputTokens,
    thinkingTokens: first.thinkingTokens + second.thinkingTokens,
    cachedInputTokens: first.cachedInputTokens + second.cachedInputTokens,
  };
}
