import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../tokens/count-tokens';
import { truncateText, type TextTruncation } from './truncate-text';
import { truncationNotice } from './truncation-notice';

const counter = createTokenCounter({ model: 'gpt-4o' });

function truncated(result: TextTruncation | undefined): Extract<TextTruncation, { truncated: true }> {
  if (result === undefined || !result.truncated) throw new Error('expected a truncation');
  return result;
}

function rows(count: number): { id: number; name: string; note: string }[] {
  return Array.from({ length: count }, (_, id) => ({
    id,
    name: `customer ${id}`,
    note: id % 7 === 0 ? 'said "hi", then [left] {ok}' : 'é😀',
  }));
}

/** Parses the JSON part of a truncated output (after the notice). */
function arrayOf(result: { text: string }): unknown[] {
  const notice = truncationNotice('en');
  expect(result.text.startsWith(notice)).toBe(true);
  return JSON.parse(result.text.slice(notice.length)) as unknown[];
}

describe('JSON array truncation', () => {
  it('keeps the first and last items, states how many were omitted, and stays valid JSON', () => {
    const data = rows(2000);
    const result = truncated(truncateText(JSON.stringify(data), { targetTokens: 1200, counter }));
    expect(result.strategy).toBe('json-array');
    const parsed = arrayOf(result);
    const markerIndex = parsed.findIndex((item) => typeof item === 'string');
    const kept = parsed.length - 1;
    expect(parsed[0]).toEqual(data[0]);
    expect(parsed.at(-1)).toEqual(data.at(-1));
    expect(parsed.slice(0, markerIndex)).toEqual(data.slice(0, markerIndex));
    expect(parsed.slice(markerIndex + 1)).toEqual(data.slice(data.length - (kept - markerIndex)));
    expect(parsed[markerIndex]).toMatch(
      new RegExp(`^\\[\\.\\.\\. ${(2000 - kept).toLocaleString('en-US')} of 2,000 items omitted \\(`),
    );
    expect(result.stats.items).toEqual({ omitted: 2000 - kept, total: 2000 });
    expect(markerIndex / kept).toBeGreaterThan(0.45);
    expect(counter.countText(result.text)).toBeLessThanOrEqual(1200);
  });

  it('handles pretty-printed arrays and reuses their separator', () => {
    const data = rows(800);
    const result = truncated(truncateText(JSON.stringify(data, null, 2), { targetTokens: 1500, counter }));
    expect(result.strategy).toBe('json-array');
    const parsed = arrayOf(result);
    expect(parsed[0]).toEqual(data[0]);
    expect(parsed.at(-1)).toEqual(data.at(-1));
    expect(result.text).toMatch(/\},\n {2}"\[\.\.\. /);
  });

  it('counts items of arrays of arrays, numbers and strings with escapes', () => {
    const data = Array.from({ length: 3000 }, (_, index) =>
      index % 3 === 0
        ? [index, [index, 'x]'], { a: '\\"' }]
        : index % 3 === 1
          ? index * 1.5
          : `s\\"${index}"]`,
    );
    const result = truncated(truncateText(JSON.stringify(data), { targetTokens: 600, counter }));
    expect(result.strategy).toBe('json-array');
    const parsed = arrayOf(result);
    expect(result.stats.items?.total).toBe(3000);
    expect(result.stats.items?.omitted).toBe(3000 - (parsed.length - 1));
  });

  it('cuts as text what only looks like an array', () => {
    const log =
      Array.from({ length: 4000 }, (_, index) => `[INFO] request ${index} served`).join('\n') + '\n[DONE]';
    expect(truncated(truncateText(log, { targetTokens: 500, counter })).strategy).toBe('lines');
    const unterminated = '["a", "b' + 'x'.repeat(20_000) + ']';
    expect(truncated(truncateText(unterminated, { targetTokens: 500, counter })).strategy).toBe('text');
    const trailingComma = '[' + '1, '.repeat(10_000) + ']';
    expect(truncated(truncateText(trailingComma, { targetTokens: 500, counter })).strategy).not.toBe(
      'json-array',
    );
  });

  it('cuts an array whose single item is too large as text', () => {
    const single = JSON.stringify([{ blob: 'y '.repeat(30_000) }]);
    const result = truncated(truncateText(single, { targetTokens: 800, counter }));
    expect(result.strategy).toBe('text');
    expect(counter.countText(result.text)).toBeLessThanOrEqual(800);
  });

  it('keeps valid JSON arrays valid for arbitrary items', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 30, maxLength: 400 }),
        fc.boolean(),
        fc.integer({ min: 150, max: 900 }),
        (items, pretty, target) => {
          const text = pretty ? JSON.stringify(items, null, 2) : JSON.stringify(items);
          const result = truncateText(text, { targetTokens: target, counter });
          if (result === undefined || !result.truncated) return;
          expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
          if (result.strategy !== 'json-array') return;
          const parsed = arrayOf(result);
          expect(result.stats.items?.total).toBe(items.length);
          expect(result.stats.items?.omitted).toBe(items.length - (parsed.length - 1));
          const markerIndex = parsed.findIndex(
            (item, index) =>
              typeof item === 'string' && /^\[\.\.\. .* items omitted/.test(item) && index <= items.length,
          );
          expect(parsed.slice(0, markerIndex)).toEqual(
            JSON.parse(JSON.stringify(items.slice(0, markerIndex))),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
