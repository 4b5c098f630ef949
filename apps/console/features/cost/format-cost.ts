/** What several model calls cost, as the API sends it (`costJsonFields` of the contract). */
export interface CostFields {
  readonly costMicros: number | null;
  readonly pricedCostMicros: number;
  readonly unpricedCalls: number;
}

/**
 * Micro-dollars as dollars: cents at least, and as many more decimals (up to six) as it takes to
 * show a small cost exactly (`$0.0035`, not `$0.00`).
 */
export function formatMicroDollars(micros: number): string {
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `$${whole.toLocaleString('en-US')}.${fraction}`;
}

/** Why a cost shows as unknown, for its title. */
export function unknownCostReason(unpricedCalls: number, pricedCostMicros = 0): string {
  const calls = unpricedCalls === 1 ? '1 model call' : `${unpricedCalls} model calls`;
  const known =
    pricedCostMicros > 0 ? ` The calls that had a price cost ${formatMicroDollars(pricedCostMicros)}.` : '';
  return `Unknown: ${calls} used a model that has no price in the price table.${known}`;
}
