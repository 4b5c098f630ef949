import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../tokens/count-tokens';
import { truncateText, type TextTruncation } from './truncate-text';
import { hasTruncationNotice, truncationNotice } from './truncation-notice';

const counter = createTokenCounter({ model: 'gpt-4o' });
const notice = truncationNotice('en');
const ITEMS_MARKER = /^\[\.\.\. ([\d,]+) of ([\d,]+) items omitted \(/;

function truncated(result: TextTruncation | undefined): Extract<TextTruncation, { truncated: true }> {
  if (result === undefined || !result.truncated) throw new Error('expected a truncation');
  return result;
}

function bodyOf(result: { text: string }): unknown {
  expect(result.text.startsWith(notice)).toBe(true);
  return JSON.parse(result.text.slice(notice.length));
}

function rows(count: number, from = 0): { id: number; name: string; note: string }[] {
  return Array.from({ length: count }, (_, index) => ({
    id: from + index,
    name: `customer ${from + index}`,
    note: index % 5 === 0 ? 'said "hi", then [left] {ok} \\ é😀' : 'fine',
  }));
}

/** The cut array: original head items, one marker, original tail items; checks the marker's numbers. */
function expectArrayCut(cut: unknown[], original: unknown[]): { omitted: number } {
  const markerIndex = cut.findIndex((item) => typeof item === 'string' && ITEMS_MARKER.test(item));
  expect(markerIndex).toBeGreaterThanOrEqual(0);
  const [, omitted, total] = ITEMS_MARKER.exec(cut[markerIndex] as string)!;
  const tailCount = cut.length - markerIndex - 1;
  expect(cut.slice(0, markerIndex)).toEqual(original.slice(0, markerIndex));
  expect(cut.slice(markerIndex + 1)).toEqual(original.slice(original.length - tailCount));
  expect(Number(total!.replaceAll(',', ''))).toBe(original.length);
  expect(Number(omitted!.replaceAll(',', ''))).toBe(original.length - markerIndex - tailCount);
  return { omitted: original.length - markerIndex - tailCount };
}

describe('JSON object truncation', () => {
  it('cuts the array inside an envelope, keeping every key, the first and last items and the count', () => {
    const data = { status: 'ok', rows: rows(3000), total: 3000, next: 'cursor-9' };
    const result = truncated(truncateText(JSON.stringify(data), { targetTokens: 1200, counter }));
    expect(result.strategy).toBe('json-object');
    const body = bodyOf(result) as typeof data;
    expect(Object.keys(body)).toEqual(['status', 'rows', 'total', 'next']);
    expect(body).toMatchObject({ status: 'ok', total: 3000, next: 'cursor-9' });
    const { omitted } = expectArrayCut(body.rows, data.rows);
    expect(body.rows[0]).toEqual(data.rows[0]);
    expect(body.rows.at(-1)).toEqual(data.rows.at(-1));
    expect(result.stats.items).toEqual({ omitted, total: 3000 });
    expect(result.tokens).toBeLessThanOrEqual(1200);
  });

  it('follows nested envelopes ({"data":{"items":[…]}}), pretty-printed too', () => {
    const data = { data: { page: 1, items: rows(2000), more: true }, meta: { took: 12 } };
    for (const text of [JSON.stringify(data), JSON.stringify(data, null, 2)]) {
      const result = truncated(truncateText(text, { targetTokens: 1000, counter }));
      expect(result.strategy).toBe('json-object');
      const body = bodyOf(result) as typeof data;
      expect(body.meta).toEqual(data.meta);
      expect(Object.keys(body.data)).toEqual(['page', 'items', 'more']);
      expectArrayCut(body.data.items, data.data.items);
    }
  });

  it('cuts several large arrays, each with its own marker, and keeps the keys between them', () => {
    const data = { first: rows(1500), middle: { size: 3 }, second: rows(1500, 1500) };
    const result = truncated(truncateText(JSON.stringify(data), { targetTokens: 900, counter }));
    expect(result.strategy).toBe('json-object');
    const body = bodyOf(result) as typeof data;
    expect(Object.keys(body)).toEqual(['first', 'middle', 'second']);
    expect(body.middle).toEqual(data.middle);
    const first = expectArrayCut(body.first, data.first);
    const second = expectArrayCut(body.second, data.second);
    expect(result.stats.items).toEqual({ omitted: first.omitted + second.omitted, total: 3000 });
  });

  it('cuts a long string value inside, on escape and surrogate boundaries, as a valid string', () => {
    const data = { id: 7, log: 'a\\b "quoted" é😀\n\t\u0001 '.repeat(8000), code: 0 };
    const result = truncated(truncateText(JSON.stringify(data), { targetTokens: 700, counter }));
    expect(result.strategy).toBe('json-object');
    const body = bodyOf(result) as typeof data;
    expect(Object.keys(body)).toEqual(['id', 'log', 'code']);
    const [head, tail] = body.log.split(/ \[\.\.\. [\d,]+ characters omitted \.\.\.\] /);
    expect(data.log.startsWith(head!)).toBe(true);
    expect(data.log.endsWith(tail!)).toBe(true);
    expect(body.log).not.toMatch(/\uFFFD/);
  });

  it('leaves to the text cut what is not one JSON object', () => {
    const twoObjects = `${JSON.stringify({ rows: rows(500) })} ${JSON.stringify({ rows: rows(500) })}`;
    expect(truncated(truncateText(twoObjects, { targetTokens: 500, counter })).strategy).not.toBe(
      'json-object',
    );
    const unterminated = JSON.stringify({ rows: rows(800) }).slice(0, -1);
    expect(truncated(truncateText(unterminated, { targetTokens: 500, counter })).strategy).not.toBe(
      'json-object',
    );
  });

  it('a huge map with thousands of keys in the middle is not kept key by key', () => {
    const map = Object.fromEntries(rows(4000).map((row) => [`key${row.id}`, row]));
    const result = truncated(truncateText(JSON.stringify({ users: map }), { targetTokens: 800, counter }));
    expect(result.tokens).toBeLessThanOrEqual(800);
    expect(result.text.length).toBeLessThan(20_000);
  });

  it('an array whose every item fits is kept as it is, not given a "0 of N omitted" marker', () => {
    // Found by the property below (seed -58265168): a one-item array reaching into the middle got a
    // marker after its only item without a comma, so the cut did not parse.
    const data = {
      '': {
        '': [['', null, null, -1.0000000000437062e-246, '0', -1.0018480958139641e-173]],
        '  0*': {
          '': [false, null, false, -2.8212830836285e-311, false, null, null, '', null],
          ' ': { '0': false, '  ': null, '  !': 5.0803129522256076e101, ' !': '  0  0', '0:  ! 0': null },
          'a  0': [{}, [null, '0'], null],
          'a 0:0  ': {},
        },
      },
      '  ': [1.0002419963367323e-304, false, ' ', false, null, 1.1506258796296592e-258, false],
    };
    const text = JSON.stringify(data, null, 2);
    const result = truncated(truncateText(text, { targetTokens: 255, counter }));
    expect(counter.countText(result.text)).toBeLessThanOrEqual(255);
    expect(Object.keys(bodyOf(result) as object)).toEqual(Object.keys(data));
    expect(result.text).not.toContain('[... 0 of');
  });

  const envelope = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 2 }),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 20, maxLength: 300 }),
      fc.string({ minLength: 200, maxLength: 3000 }),
      tie('object'),
    ),
    object: fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { minKeys: 1, maxKeys: 4 }),
  })).object;

  it('properties: under budget, notice iff truncated, a JSON-object cut parses with the same top-level keys', () => {
    let objectCuts = 0;
    fc.assert(
      fc.property(envelope, fc.boolean(), fc.integer({ min: 120, max: 1500 }), (data, pretty, target) => {
        const text = pretty ? JSON.stringify(data, null, 2) : JSON.stringify(data);
        const result = truncateText(text, { targetTokens: target, counter });
        if (result === undefined) return;
        expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
        expect(hasTruncationNotice(result.text)).toBe(result.truncated);
        if (!result.truncated || result.strategy !== 'json-object') return;
        objectCuts += 1;
        const body = bodyOf(result) as Record<string, unknown>;
        expect(Object.keys(body)).toEqual(Object.keys(JSON.parse(text) as object));
        expect(result.stats.characters).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
    // The generator must really reach the structured cut, not only the text fallback.
    expect(objectCuts).toBeGreaterThan(30);
  });

  it('property: every array cut inside an envelope keeps original first items, last items and exact counts', () => {
    let objectCuts = 0;
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 50, maxLength: 400 }),
        fc.constantFrom(['rows'], ['data', 'items'], ['a', 'b', 'c']),
        fc.integer({ min: 150, max: 900 }),
        (items, path, target) => {
          const data = path.reduceRight<unknown>(
            (inner, key) => ({ before: 1, [key]: inner, after: 'x' }),
            items,
          );
          const result = truncateText(JSON.stringify(data), { targetTokens: target, counter });
          if (result === undefined || !result.truncated || result.strategy !== 'json-object') return;
          objectCuts += 1;
          const body = bodyOf(result);
          const cut = path.reduce<unknown>((inner, key) => (inner as Record<string, unknown>)[key], body);
          const original = JSON.parse(JSON.stringify(items)) as unknown[];
          const { omitted } = expectArrayCut(cut as unknown[], original);
          expect(result.stats.items).toEqual({ omitted, total: items.length });
        },
      ),
      { numRuns: 150 },
    );
    expect(objectCuts).toBeGreaterThan(75);
  });
});
