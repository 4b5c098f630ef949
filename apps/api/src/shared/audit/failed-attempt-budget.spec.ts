import { describe, expect, it } from 'vitest';
import { FailedAttemptBudget } from './failed-attempt-budget';

describe('FailedAttemptBudget', () => {
  it('lets each address cause a few records per window, then none until the next window', () => {
    let now = 1_000;
    const budget = new FailedAttemptBudget(2, 60_000, () => now);
    expect([budget.take('a'), budget.take('a'), budget.take('a')]).toEqual([true, true, false]);
    // Another address has its own budget.
    expect(budget.take('b')).toBe(true);
    now += 59_999;
    expect(budget.take('a')).toBe(false);
    now += 1;
    expect([budget.take('a'), budget.take('a'), budget.take('a')]).toEqual([true, true, false]);
  });
});
