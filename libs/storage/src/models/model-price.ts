import type { Selectable } from 'kysely';
import type { ModelPricesTable } from '../database-schema';
import type { TokenUsage } from './session';

/** Prices of one model in integer micro-dollars per million tokens. */
export interface TokenPrices {
  readonly inputMicrosPerMillion: number;
  readonly cachedInputMicrosPerMillion: number;
  readonly outputMicrosPerMillion: number;
  readonly thinkingMicrosPerMillion: number;
}

/** One price version of one model (never changed once stored). */
export interface ModelPrice extends TokenPrices {
  readonly id: string;
  readonly model: string;
  readonly provider: string;
  /** From when this version is the model's price (until a later version's). */
  readonly effectiveFrom: Date;
  readonly createdAt: Date;
  /** The principal who added it; `seed` for the shipped defaults. */
  readonly createdBy: string;
}

/** What one model call cost: micro-dollars and the price version used, or null cost without a price. */
export interface CallCost {
  readonly costMicros: number | null;
  readonly priceId: string | null;
}

/** The cost of a call whose model has no price: unknown, never 0. */
export const UNPRICED: CallCost = Object.freeze({ costMicros: null, priceId: null });

const MILLION = 1_000_000;
const BIG_MILLION = 1_000_000n;

/**
 * What `usage` costs at `prices`, in micro-dollars, exactly: uncached input (input minus cached),
 * cached input, output and thinking tokens times their price, summed in integers and rounded half
 * up to a whole micro-dollar once. Plain numbers while the sum stays below 2^53 (every real call);
 * BigInt beyond, so a huge count times a huge price is still exact.
 */
export function costMicrosOf(prices: TokenPrices, usage: TokenUsage): number {
  const cached = Math.min(usage.cached, usage.input);
  const uncached = usage.input - cached;
  const largestCount = Math.max(uncached, cached, usage.output, usage.thinking);
  const largestPrice = Math.max(
    prices.inputMicrosPerMillion,
    prices.cachedInputMicrosPerMillion,
    prices.outputMicrosPerMillion,
    prices.thinkingMicrosPerMillion,
  );
  if (largestCount * largestPrice * 4 + MILLION <= Number.MAX_SAFE_INTEGER) {
    const microsTimesMillion =
      uncached * prices.inputMicrosPerMillion +
      cached * prices.cachedInputMicrosPerMillion +
      usage.output * prices.outputMicrosPerMillion +
      usage.thinking * prices.thinkingMicrosPerMillion +
      MILLION / 2;
    // Integer division without float error: the remainder corrects the quotient.
    let quotient = Math.floor(microsTimesMillion / MILLION);
    const remainder = microsTimesMillion - quotient * MILLION;
    if (remainder < 0) quotient -= 1;
    else if (remainder >= MILLION) quotient += 1;
    return quotient;
  }
  const microsTimesMillion =
    BigInt(uncached) * BigInt(prices.inputMicrosPerMillion) +
    BigInt(cached) * BigInt(prices.cachedInputMicrosPerMillion) +
    BigInt(usage.output) * BigInt(prices.outputMicrosPerMillion) +
    BigInt(usage.thinking) * BigInt(prices.thinkingMicrosPerMillion);
  return Number((microsTimesMillion + BIG_MILLION / 2n) / BIG_MILLION);
}

/** Maps a `model_prices` row (PostgreSQL returns bigint as strings). */
export function toModelPrice(row: Selectable<ModelPricesTable>): ModelPrice {
  return {
    id: row.id,
    model: row.model,
    provider: row.provider,
    inputMicrosPerMillion: Number(row.input_micros_per_million),
    cachedInputMicrosPerMillion: Number(row.cached_input_micros_per_million),
    outputMicrosPerMillion: Number(row.output_micros_per_million),
    thinkingMicrosPerMillion: Number(row.thinking_micros_per_million),
    effectiveFrom: new Date(Number(row.effective_from)),
    createdAt: new Date(Number(row.created_at)),
    createdBy: row.created_by,
  };
}
