import { formatMicroDollars, unknownCostReason, type CostFields } from './format-cost';

/**
 * A cost as text: dollars when every call had a price, else "unknown" with a title saying why —
 * never "$0" for a cost nobody knows.
 */
export function CostText({ cost }: { cost: CostFields }) {
  if (cost.costMicros !== null) return <span className="cost">{formatMicroDollars(cost.costMicros)}</span>;
  return (
    <span className="cost cost-unknown" title={unknownCostReason(cost.unpricedCalls, cost.pricedCostMicros)}>
      unknown
    </span>
  );
}

/** One call's cost (a lab target): null when its model has no price; undefined on runs stored before prices. */
export function CallCostText({ costMicros }: { costMicros: number | null | undefined }) {
  if (costMicros === undefined)
    return (
      <span className="cost cost-unknown" title="Unknown: this run was stored before model prices were kept.">
        unknown
      </span>
    );
  return <CostText cost={{ costMicros, pricedCostMicros: 0, unpricedCalls: costMicros === null ? 1 : 0 }} />;
}
