import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryRateCounter } from './memory-rate-counter';

describe('MemoryRateCounter', () => {
  it('counts hits in fixed windows: the count is the hits since the window opened, the reset its remaining time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 60 }),
        async (windowMs, gaps) => {
          let now = 1_000_000;
          const counter = new MemoryRateCounter(100, () => now);
          let windowStart: number | undefined;
          let expected = 0;
          for (const gap of gaps) {
            now += gap;
            if (windowStart === undefined || now >= windowStart + windowMs) {
              windowStart = now;
              expected = 0;
            }
            expected += 1;
            const result = await counter.hit('bucket', windowMs);
            expect(result).toEqual({ count: expected, resetInMs: windowStart + windowMs - now });
          }
        },
      ),
    );
  });

  it('keeps buckets apart and forgets the oldest window past its bound', () => {
    const now = 0;
    const counter = new MemoryRateCounter(3, () => now);
    for (const bucket of ['a', 'b', 'c']) counter.hitNow(bucket, 60_000);
    expect(counter.hitNow('a', 60_000).count).toBe(2);
    // A fourth bucket pushes out the window opened first ('a').
    counter.hitNow('d', 60_000);
    expect(counter.hitNow('a', 60_000).count).toBe(1);
    expect(counter.hitNow('c', 60_000).count).toBe(2);
  });
});
