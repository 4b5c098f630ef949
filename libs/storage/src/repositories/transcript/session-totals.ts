import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../database-schema';
import type { CallCost } from '../../models/model-price';
import type { TokenUsage } from '../../models/session';

/** A message's usage columns (all null without usage). */
export function usageColumns(usage: TokenUsage | null): {
  input_tokens: number | null;
  output_tokens: number | null;
  thinking_tokens: number | null;
  cached_tokens: number | null;
} {
  return {
    input_tokens: usage?.input ?? null,
    output_tokens: usage?.output ?? null,
    thinking_tokens: usage?.thinking ?? null,
    cached_tokens: usage?.cached ?? null,
  };
}

/**
 * A session's token totals plus `usage`, and its cost plus the call's (nothing to set without
 * usage). A call with usage but no cost (no price for its model, or none given) counts as unpriced.
 */
export function addedToSessionTotals(
  eb: ExpressionBuilder<Database, 'sessions'>,
  usage: TokenUsage | null,
  cost?: CallCost | null,
) {
  if (usage === null) return {};
  const costMicros = cost?.costMicros ?? null;
  return {
    input_tokens: eb('input_tokens', '+', usage.input),
    output_tokens: eb('output_tokens', '+', usage.output),
    thinking_tokens: eb('thinking_tokens', '+', usage.thinking),
    cached_tokens: eb('cached_tokens', '+', usage.cached),
    ...(costMicros === null
      ? { unpriced_calls: eb('unpriced_calls', '+', 1) }
      : { cost_micros: eb('cost_micros', '+', costMicros) }),
  };
}

/** The usage several messages add to the session totals; null when none carries any. */
export function sumUsage(usages: ReadonlyArray<TokenUsage | null | undefined>): TokenUsage | null {
  const given = usages.flatMap((usage) => (usage == null ? [] : [usage]));
  if (given.length === 0) return null;
  return given.reduce((total, usage) => ({
    input: total.input + usage.input,
    output: total.output + usage.output,
    thinking: total.thinking + usage.thinking,
    cached: total.cached + usage.cached,
  }));
}
