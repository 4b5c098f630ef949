import type { UsageOverride } from '../script/scripted-reply';

/** Provider-neutral token counts with every field filled in; see {@link UsageOverride} for meanings. */
export interface ResolvedUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cacheCreationInputTokens: number;
  reasoningTokens: number;
}

/** Rough, deterministic token estimate (about four characters a token), never below 1. */
export function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}

/**
 * Fills the override's gaps with estimates, keeping the providers' invariants: cached and
 * cache-write tokens are part of the input, and reasoning tokens are part of the output.
 */
export function resolveUsage(
  override: UsageOverride | undefined,
  requestCharacters: number,
  visibleOutputCharacters: number,
): ResolvedUsage {
  const cachedInputTokens = override?.cachedInputTokens ?? 0;
  const cacheCreationInputTokens = override?.cacheCreationInputTokens ?? 0;
  const reasoningTokens = override?.reasoningTokens ?? 0;
  const inputTokens = Math.max(
    override?.inputTokens ?? estimateTokens(requestCharacters),
    cachedInputTokens + cacheCreationInputTokens,
  );
  const outputTokens = Math.max(
    override?.outputTokens ?? estimateTokens(visibleOutputCharacters) + reasoningTokens,
    reasoningTokens,
  );
  return { inputTokens, outputTokens, cachedInputTokens, cacheCreationInputTokens, reasoningTokens };
}
