import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonDiffEntry } from '@agentdesk/api-contract';
import { pointerTokens } from '../assertions/resolve-pointer';
import { jsonValue } from '../test-support/arbitraries';
import { jsonDiff } from './json-diff';

/** Applies diff entries in order (a deliberately small, separate implementation). */
function applyDiff(value: unknown, entries: readonly JsonDiffEntry[]): unknown {
  let root = structuredClone(value);
  for (const entry of entries) {
    const tokens = pointerTokens(entry.pointer);
    if (tokens.length === 0) {
      root = structuredClone(entry.after);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const token of tokens.slice(0, -1))
      parent = (parent as Record<string, unknown>)[token] as Record<string, unknown>;
    const last = tokens[tokens.length - 1]!;
    if (Array.isArray(parent)) {
      const index = Number(last);
      if (entry.op === 'removed') parent.splice(index, 1);
      else parent[index] = structuredClone(entry.after);
    } else if (entry.op === 'removed') {
      delete parent[last];
    } else {
      Object.defineProperty(parent, last, {
        value: structuredClone(entry.after),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root;
}

/** Two related values: the second often an edit of the first, so diffs go deep. */
const pairOfValues = fc.oneof(
  fc.tuple(jsonValue, jsonValue),
  fc
    .tuple(
      fc.dictionary(fc.string({ maxLength: 4 }), jsonValue, { maxKeys: 4 }),
      fc.dictionary(fc.string({ maxLength: 4 }), jsonValue, { maxKeys: 4 }),
    )
    .map(([left, extra]) => [left, { ...left, ...extra }] as const),
  fc.tuple(fc.array(jsonValue, { maxLength: 5 }), fc.array(jsonValue, { maxLength: 5 })).map(
    ([left, right]) =>
      [
        { items: left, id: 1 },
        { items: right, id: 1 },
      ] as const,
  ),
);

describe('jsonDiff', () => {
  it('gives entries that turn before into after when applied in order', () => {
    fc.assert(
      fc.property(pairOfValues, ([before, after]) => {
        expect(applyDiff(before, jsonDiff(before, after))).toEqual(after);
      }),
      { numRuns: 500 },
    );
  });

  it('is empty for JSON-equal values, whatever the key order', () => {
    expect(jsonDiff({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toEqual([]);
  });

  it('names what changed by pointer, escaping keys', () => {
    expect(
      jsonDiff({ total: 12, 'a/b': 1, items: [1, 2, 3] }, { total: 12.5, items: [1, 2], status: 'paid' }),
    ).toEqual([
      { pointer: '/total', op: 'changed', before: 12, after: 12.5 },
      { pointer: '/a~1b', op: 'removed', before: 1 },
      { pointer: '/items/2', op: 'removed', before: 3 },
      { pointer: '/status', op: 'added', after: 'paid' },
    ]);
  });
});
