import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIRST_ROWS, ROWS_PER_SLICE, firstRowCount, nextRowCount } from './row-slices';

/** Every count the matrix goes through, from the first render until all `total` rows are there. */
function countsUntilWhole(total: number, first?: number, perSlice?: number): number[] {
  const counts = [firstRowCount(total, first)];
  while (counts.at(-1)! < total) counts.push(nextRowCount(counts.at(-1)!, total, perSlice));
  return counts;
}

describe('row slices', () => {
  it('renders a short matrix whole at once', () => {
    expect(countsUntilWhole(3)).toEqual([3]);
    expect(countsUntilWhole(FIRST_ROWS)).toEqual([FIRST_ROWS]);
    expect(countsUntilWhole(0)).toEqual([0]);
  });

  it('brings a 250-case run in a first screen and slices of its size', () => {
    const counts = countsUntilWhole(250);
    expect(counts[0]).toBe(FIRST_ROWS);
    expect(counts.at(-1)).toBe(250);
    expect(counts.length).toBe(1 + Math.ceil((250 - FIRST_ROWS) / ROWS_PER_SLICE));
  });

  it('stops at a total that shrank (a filter) and goes on when it grows', () => {
    expect(nextRowCount(90, 60)).toBe(60);
    expect(nextRowCount(60, 200)).toBe(60 + ROWS_PER_SLICE);
  });

  it('always moves forward by at most a slice and ends at the total', () => {
    fc.assert(
      fc.property(
        fc.nat(3_000),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: -5, max: 200 }),
        (total, first, perSlice) => {
          const counts = countsUntilWhole(total, first, perSlice);
          expect(counts.at(-1)).toBe(total);
          expect(counts[0]).toBe(Math.min(total, first));
          for (let index = 1; index < counts.length; index++) {
            const step = counts[index]! - counts[index - 1]!;
            expect(step).toBeGreaterThan(0);
            expect(step).toBeLessThanOrEqual(Math.max(1, perSlice));
          }
        },
      ),
    );
  });
});
