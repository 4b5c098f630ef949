import { costMicrosOf, UNPRICED, type CallCost, type ModelPrice } from './model-price';
import type { TokenUsage } from './session';

/**
 * Price versions in memory, by model: what a call cost at a time is a map lookup and integer
 * arithmetic, never a query (the API's price book keeps one, reloaded when the table changes).
 */
export class PriceTable {
  /** Each model's versions, newest `effectiveFrom` first. */
  private readonly byModel = new Map<string, ModelPrice[]>();

  /** `versions` in any order. */
  constructor(readonly versions: readonly ModelPrice[]) {
    for (const price of versions) {
      const list = this.byModel.get(price.model);
      if (list === undefined) this.byModel.set(price.model, [price]);
      else list.push(price);
    }
    for (const list of this.byModel.values())
      list.sort((left, right) => right.effectiveFrom.getTime() - left.effectiveFrom.getTime());
  }

  /** The version of `model` in effect at `at` (epoch ms), or null when the model has no price then. */
  priceAt(model: string, at: number): ModelPrice | null {
    const versions = this.byModel.get(model);
    if (versions === undefined) return null;
    for (const version of versions) if (version.effectiveFrom.getTime() <= at) return version;
    return null;
  }

  /** What a call with `usage` cost at `at`: unknown (null) without a price, never 0. */
  costOf(model: string, usage: TokenUsage, at: number): CallCost {
    const price = this.priceAt(model, at);
    if (price === null) return UNPRICED;
    return { costMicros: costMicrosOf(price, usage), priceId: price.id };
  }
}
