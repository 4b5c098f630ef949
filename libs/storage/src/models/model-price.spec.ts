import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costMicrosOf } from './model-price';

/** The definition, in BigInt only: Σ tokens × µ$ per million, rounded half up to a micro-dollar. */
function reference(prices: readonly number[], counts: readonly number[]): bigint {
  const sum = counts.reduce((total, count, index) => total + BigInt(count) * BigInt(prices[index]!), 0n);
  return (sum + 500_000n) / 1_000_000n;
}

describe('the cost of a call', () => {
  it('is exact: 1,000 input and 100 output tokens at $2.50 / $10 per million cost $0.0035', () => {
    const prices = {
      inputMicrosPerMillion: 2_500_000,
      cachedInputMicrosPerMillion: 1_250_000,
      outputMicrosPerMillion: 10_000_000,
      thinkingMicrosPerMillion: 10_000_000,
    };
    expect(costMicrosOf(prices, { input: 1_000, output: 100, thinking: 0, cached: 0 })).toBe(3_500);
    // Cached tokens are part of input and cost the cached price instead.
    expect(costMicrosOf(prices, { input: 1_000, output: 0, thinking: 0, cached: 400 })).toBe(2_000);
    // Half a micro-dollar rounds up, less rounds down.
    expect(
      costMicrosOf(
        { ...prices, inputMicrosPerMillion: 500_000 },
        { input: 1, output: 0, thinking: 0, cached: 0 },
      ),
    ).toBe(1);
    expect(
      costMicrosOf(
        { ...prices, inputMicrosPerMillion: 499_999 },
        { input: 1, output: 0, thinking: 0, cached: 0 },
      ),
    ).toBe(0);
  });

  it('equals the all-integer definition for any counts and prices, small or past 2^53 (property)', () => {
    const count = fc.oneof(fc.nat(10_000), fc.nat(2_000_000_000));
    const price = fc.oneof(fc.nat(100_000_000), fc.nat(1_000_000_000_000));
    fc.assert(
      fc.property(
        fc.tuple(count, count, count, count),
        fc.tuple(price, price, price, price),
        (counts, prices) => {
          const [input, cachedAsked, output, thinking] = counts;
          const cached = Math.min(cachedAsked, input);
          const cost = costMicrosOf(
            {
              inputMicrosPerMillion: prices[0],
              cachedInputMicrosPerMillion: prices[1],
              outputMicrosPerMillion: prices[2],
              thinkingMicrosPerMillion: prices[3],
            },
            { input, cached, output, thinking },
          );
          expect(BigInt(cost)).toBe(reference(prices, [input - cached, cached, output, thinking]));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
