import { z } from 'zod';

/*
 * Costs are integer US micro-dollars ($1 = 1 000 000): exact sums, no float drift. A model call whose
 * model has no price has an unknown cost — never 0 — so every cost travels with how many calls it
 * could not price.
 */

/** What several model calls cost: known only when every call had a price. */
export const costJsonFields = {
  /** Micro-dollars of all the calls; null when any call's model had no price (the cost is unknown). */
  costMicros: z.number().int().nonnegative().nullable(),
  /** Micro-dollars of the calls that had a price (a lower bound when some did not). */
  pricedCostMicros: z.number().int().nonnegative(),
  /** Calls whose model had no price. */
  unpricedCalls: z.number().int().nonnegative(),
};

export interface CostJson {
  costMicros: number | null;
  pricedCostMicros: number;
  unpricedCalls: number;
}

/** The cost fields of priced micro-dollars and a count of unpriced calls. */
export function costJsonOf(pricedCostMicros: number, unpricedCalls: number): CostJson {
  return { costMicros: unpricedCalls === 0 ? pricedCostMicros : null, pricedCostMicros, unpricedCalls };
}
