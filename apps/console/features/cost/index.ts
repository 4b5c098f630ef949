export { CallCostText, CostText } from './cost-text';
export { formatMicroDollars, unknownCostReason, type CostFields } from './format-cost';
