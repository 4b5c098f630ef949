import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids';

describe('newId', () => {
  it('has the UUIDv7 layout and carries the time', () => {
    const at = Date.UTC(2026, 4, 1, 12, 0, 0, 123);
    const id = newId(at);
    expect(isId(id)).toBe(true);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThanOrEqual(at);
  });

  it('sorts in creation order, even thousands per millisecond', () => {
    const at = Date.now() + 10_000;
    const ids = Array.from({ length: 5000 }, () => newId(at));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts by time across increasing timestamps', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 2, maxLength: 50 }), (steps) => {
        let time = Date.now() + 20_000;
        const ids = steps.map((step) => newId((time += step)));
        expect([...ids].sort()).toEqual(ids);
      }),
    );
  });

  it('draws fresh random bits for every id, across refills of the random pool', () => {
    const randomParts = Array.from({ length: 3000 }, () => newId().slice(19));
    expect(new Set(randomParts).size).toBe(randomParts.length);
    for (const part of randomParts) expect(part).toMatch(/^[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
