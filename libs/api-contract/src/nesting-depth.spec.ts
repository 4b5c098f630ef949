import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findTooDeep, MAX_NESTING_DEPTH, tooDeepMessage } from './nesting-depth';

/** The depth of a value counted recursively (the definition the iterative check must agree with). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** Follows a path of keys and indexes into a value. */
function at(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

const arrays = (depth: number): unknown => {
  let value: unknown = [];
  for (let level = 1; level < depth; level++) value = [value];
  return value;
};

describe('findTooDeep', () => {
  it('refuses exactly the values deeper than the limit, and its path leads to the first level past it (property)', () => {
    const limit = 6;
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.boolean()),
        fc.array(tie('tree'), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 3 }), tie('tree'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        const found = findTooDeep(value, limit);
        expect(found === undefined).toBe(depthOf(value) <= limit);
        if (found === undefined) return;
        expect(found.limit).toBe(limit);
        // The path names limit levels of containers, and the container it reaches is one more.
        expect(found.path).toHaveLength(limit);
        const reached = at(value, found.path);
        expect(typeof reached === 'object' && reached !== null).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('measures values far deeper than recursive code survives, without overflowing', () => {
    const deep = { cases: [{ equals: arrays(200_000) }] };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const found = findTooDeep(deep);
    expect(found?.path.slice(0, 3)).toEqual(['cases', 0, 'equals']);
    expect(found?.path).toHaveLength(MAX_NESTING_DEPTH);
  });

  it('accepts the limit itself, refuses one level more', () => {
    expect(findTooDeep(arrays(MAX_NESTING_DEPTH))).toBeUndefined();
    expect(findTooDeep(arrays(MAX_NESTING_DEPTH + 1))).toBeDefined();
    expect(findTooDeep('a string is no container')).toBeUndefined();
  });

  it('words the refusal with the path (cut after eight segments) and the limit', () => {
    const message = tooDeepMessage(findTooDeep({ a: { b: arrays(MAX_NESTING_DEPTH + 10) } })!, (segments) =>
      segments.join('.'),
    );
    expect(message).toBe(
      `a.b.0.0.0.0.0.0…: arrays and objects are nested more than ${MAX_NESTING_DEPTH} levels deep here (the most any value may have); flatten the value`,
    );
  });
});
