import { describe, expect, it } from 'vitest';
import { formatMicroDollars, unknownCostReason } from './format-cost';

describe('costs as text', () => {
  it('shows cents at least and small costs exactly, never rounding a cost to $0.00', () => {
    expect(formatMicroDollars(0)).toBe('$0.00');
    expect(formatMicroDollars(3_500)).toBe('$0.0035');
    expect(formatMicroDollars(1)).toBe('$0.000001');
    expect(formatMicroDollars(12_340_000)).toBe('$12.34');
    expect(formatMicroDollars(1_234_567_000_000)).toBe('$1,234,567.00');
  });

  it('says why a cost is unknown, with the part that is known', () => {
    expect(unknownCostReason(1)).toBe(
      'Unknown: 1 model call used a model that has no price in the price table.',
    );
    expect(unknownCostReason(2, 3_500)).toContain('2 model calls');
    expect(unknownCostReason(2, 3_500)).toContain('$0.0035');
  });
});
