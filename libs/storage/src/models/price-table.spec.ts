import { describe, expect, it } from 'vitest';
import type { ModelPrice } from './model-price';
import { PriceTable } from './price-table';

function version(id: string, model: string, effectiveFrom: number, input: number): ModelPrice {
  return {
    id,
    model,
    provider: 'openai',
    inputMicrosPerMillion: input,
    cachedInputMicrosPerMillion: input,
    outputMicrosPerMillion: input,
    thinkingMicrosPerMillion: input,
    effectiveFrom: new Date(effectiveFrom),
    createdAt: new Date(0),
    createdBy: 'seed',
  };
}

describe('the price table in memory', () => {
  // Given out of order: the table orders each model's versions itself.
  const table = new PriceTable([
    version('march', 'gpt-4o', 3_000, 3_000_000),
    version('seed', 'gpt-4o', 0, 1_000_000),
    version('other', 'gpt-4o-mini', 0, 5),
    version('february', 'gpt-4o', 2_000, 2_000_000),
  ]);
  const usage = { input: 1_000, output: 0, thinking: 0, cached: 0 };

  it('prices a call with the latest version effective at or before its time', () => {
    expect(table.priceAt('gpt-4o', 0)?.id).toBe('seed');
    expect(table.priceAt('gpt-4o', 1_999)?.id).toBe('seed');
    expect(table.priceAt('gpt-4o', 2_000)?.id).toBe('february');
    expect(table.priceAt('gpt-4o', 10_000)?.id).toBe('march');
    expect(table.costOf('gpt-4o', usage, 2_500)).toEqual({ costMicros: 2_000, priceId: 'february' });
  });

  it('has no price for an unknown model, or before a model’s first version: unknown, not 0', () => {
    expect(table.costOf('gpt-test', usage, 5_000)).toEqual({ costMicros: null, priceId: null });
    const later = new PriceTable([version('late', 'claude-x', 5_000, 1)]);
    expect(later.costOf('claude-x', usage, 4_999).costMicros).toBeNull();
  });
});
