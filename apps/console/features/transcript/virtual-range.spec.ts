import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visibleRange } from './virtual-range';

function startsOf(heights: readonly number[]): number[] {
  const starts = [0];
  for (const height of heights) starts.push((starts.at(-1) ?? 0) + height);
  return starts;
}

describe('visibleRange', () => {
  it('returns exactly the rows that overlap the window', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: -1_000, max: 200_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        (heights, from, size) => {
          const starts = startsOf(heights);
          const to = from + size;
          const { first, last } = visibleRange(starts, from, to);
          const overlapping = heights
            .map((_, index) => index)
            .filter((index) => (starts[index + 1] ?? 0) > from && (starts[index] ?? 0) < to);
          if (overlapping.length === 0) {
            // Scrolled past the end (or before the start): one row is still rendered, the nearest.
            expect(last - first).toBe(1);
          } else {
            expect([first, last]).toEqual([overlapping[0], (overlapping.at(-1) ?? 0) + 1]);
          }
        },
      ),
    );
  });

  it('renders nothing for no rows, and a handful of 2,000 rows for one window', () => {
    expect(visibleRange([0], 0, 1_000)).toEqual({ first: 0, last: 0 });
    const starts = startsOf(new Array<number>(2_000).fill(120));
    expect(visibleRange(starts, 120_000, 121_000)).toEqual({ first: 1_000, last: 1_009 });
  });
});
