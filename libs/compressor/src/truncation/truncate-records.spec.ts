import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logLines } from '../test-support/scratchpad-fixtures';
import { createTokenCounter } from '../tokens/count-tokens';
import { truncateText, type TextTruncation } from './truncate-text';
import { hasTruncationNotice, truncationNotice } from './truncation-notice';

const counter = createTokenCounter({ model: 'gpt-4o' });
const notice = truncationNotice('en');

function truncated(result: TextTruncation | undefined): Extract<TextTruncation, { truncated: true }> {
  if (result === undefined || !result.truncated) throw new Error('expected a truncation');
  return result;
}

function bodyLines(result: { text: string }): string[] {
  expect(result.text.startsWith(notice)).toBe(true);
  const lines = result.text.slice(notice.length).split('\n');
  return lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

/** Index of the marker line; the kept lines around it must be the original's first and last lines. */
function expectWholeLines(lines: string[], originalLines: string[], marker: RegExp): number {
  const markerIndex = lines.findIndex((line) => marker.test(line));
  expect(markerIndex).toBeGreaterThanOrEqual(0);
  const tail = lines.slice(markerIndex + 1);
  expect(lines.slice(0, markerIndex)).toEqual(originalLines.slice(0, markerIndex));
  expect(tail).toEqual(originalLines.slice(originalLines.length - tail.length));
  return markerIndex;
}

const records = (count: number) =>
  Array.from({ length: count }, (_, id) => ({
    id,
    event: id % 4 ? 'view' : 'click "buy" [x]',
    tags: ['a', 'é😀'],
  }));

describe('NDJSON truncation', () => {
  it('keeps whole records, puts the marker on its own line as a JSON string, and counts records', () => {
    const original = records(3000).map((record) => JSON.stringify(record));
    const result = truncated(truncateText(`${original.join('\n')}\n`, { targetTokens: 900, counter }));
    expect(result.strategy).toBe('ndjson');
    const lines = bodyLines(result);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const markerIndex = expectWholeLines(lines, original, /records omitted/);
    const omitted = 3000 - (lines.length - 1);
    expect(JSON.parse(lines[markerIndex]!)).toMatch(
      new RegExp(`^\\[\\.\\.\\. ${omitted.toLocaleString('en-US')} of 3,000 records omitted \\(`),
    );
    expect(result.stats.items).toEqual({ omitted, total: 3000, unit: 'records' });
    expect(result.tokens).toBeLessThanOrEqual(900);
  });

  it('a single JSON document on one line or a pretty-printed one is not NDJSON', () => {
    const pretty = JSON.stringify({ rows: records(800) }, null, 2);
    expect(truncated(truncateText(pretty, { targetTokens: 500, counter })).strategy).not.toBe('ndjson');
  });

  it('property: every kept line parses, records are whole, counts add up, budget and notice hold', () => {
    let cuts = 0;
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })), {
          minLength: 30,
          maxLength: 400,
        }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.integer({ min: 120, max: 900 }),
        (objects, lineBreak, trailingBreak, target) => {
          const original = objects.map((value) => JSON.stringify(value));
          const text = original.join(lineBreak) + (trailingBreak ? lineBreak : '');
          const result = truncateText(text, { targetTokens: target, counter });
          if (result === undefined) return;
          expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
          expect(hasTruncationNotice(result.text)).toBe(result.truncated);
          if (!result.truncated || result.strategy !== 'ndjson') return;
          cuts += 1;
          const lines = bodyLines(result).map((line) => line.replace(/\r$/, ''));
          for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
          expectWholeLines(lines, original, /records omitted/);
          expect(result.stats.items).toEqual({
            omitted: original.length - (lines.length - 1),
            total: original.length,
            unit: 'records',
          });
        },
      ),
      { numRuns: 150 },
    );
    expect(cuts).toBeGreaterThan(75);
  });
});

const csvField = fc.oneof(
  fc.stringMatching(/^[a-z0-9 .]{0,12}$/),
  fc.string({ maxLength: 12 }).map((value) => `"${value.replaceAll('"', '""')}"`),
);

describe('CSV and TSV truncation', () => {
  it('keeps the header first, whole rows around a marker line, and counts the rows omitted', () => {
    const header = 'id,customer,total,note';
    const original = Array.from(
      { length: 4000 },
      (_, id) => `${id},Customer ${id},${id * 3}.5,"said ""hi"", ok"`,
    );
    const result = truncated(truncateText([header, ...original].join('\n'), { targetTokens: 800, counter }));
    expect(result.strategy).toBe('csv');
    const lines = bodyLines(result);
    expect(lines[0]).toBe(header);
    const markerIndex = expectWholeLines(lines.slice(1), original, /rows omitted/);
    const omitted = 4000 - (lines.length - 2);
    expect(lines[markerIndex + 1]).toMatch(
      new RegExp(`^\\[\\.\\.\\. ${omitted.toLocaleString('en-US')} of 4,000 rows omitted \\(`),
    );
    expect(result.stats.items).toEqual({ omitted, total: 4000, unit: 'rows' });
  });

  it('TSV with CRLF line breaks', () => {
    const rows = Array.from({ length: 3000 }, (_, id) => `${id}\tname ${id}\tok`);
    const result = truncated(
      truncateText(['id\tname\tstatus', ...rows].join('\r\n'), { targetTokens: 600, counter }),
    );
    expect(result.strategy).toBe('csv');
    expect(bodyLines(result)[0]).toBe('id\tname\tstatus\r');
  });

  it('never splits a quoted field that spans lines, and counts rows, not lines', () => {
    const rows = Array.from({ length: 2000 }, (_, id) => `${id},"line one\nline two of ${id}",x`);
    const text = ['id,text,flag', ...rows].join('\n');
    const result = truncated(truncateText(text, { targetTokens: 700, counter }));
    expect(result.strategy).toBe('csv');
    const body = result.text.slice(notice.length);
    const [head, tail] = body.split(/\[\.\.\. [^\]]* rows omitted[^\]]*\]\n/);
    expect((head!.match(/"/g) ?? []).length % 2).toBe(0);
    expect((tail!.match(/"/g) ?? []).length % 2).toBe(0);
    const keptRows = (head!.match(/,x\n/g) ?? []).length + (tail!.match(/,x(\n|$)/g) ?? []).length;
    expect(result.stats.items).toEqual({ omitted: 2000 - keptRows, total: 2000, unit: 'rows' });
  });

  it('logs and prose are not taken for CSV', () => {
    expect(truncated(truncateText(logLines(5000), { targetTokens: 500, counter })).strategy).toBe('lines');
    const prose = Array.from(
      { length: 3000 },
      (_, index) => `Sentence ${index}${', and more'.repeat(index % 3)}, then an end.`,
    ).join('\n');
    expect(truncated(truncateText(prose, { targetTokens: 500, counter })).strategy).toBe('lines');
    const pythonLog = Array.from(
      { length: 3000 },
      (_, index) =>
        `2026-11-30 12:00:07,${String(index % 1000).padStart(3, '0')} INFO worker: job ${index} done`,
    ).join('\n');
    expect(truncated(truncateText(pythonLog, { targetTokens: 500, counter })).strategy).toBe('lines');
  });

  it('property: the header is the first line, rows are whole, counts add up, budget and notice hold', () => {
    let cuts = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }).chain((columns) =>
          fc.tuple(
            fc.constant(columns),
            fc.constantFrom(',', '\t', ';'),
            fc.array(fc.array(csvField, { minLength: columns, maxLength: columns }), {
              minLength: 30,
              maxLength: 500,
            }),
          ),
        ),
        fc.integer({ min: 150, max: 900 }),
        ([columns, delimiter, table], target) => {
          const header = Array.from({ length: columns }, (_, index) => `column_${index}`).join(delimiter);
          const original = table.map((row) => row.join(delimiter));
          const text = [header, ...original].join('\n');
          const result = truncateText(text, { targetTokens: target, counter });
          if (result === undefined) return;
          expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
          expect(hasTruncationNotice(result.text)).toBe(result.truncated);
          if (!result.truncated || result.strategy !== 'csv') return;
          cuts += 1;
          const lines = bodyLines(result);
          expect(lines[0]).toBe(header);
          expectWholeLines(lines.slice(1), original, /rows omitted/);
          expect(result.stats.items?.total).toBe(original.length);
        },
      ),
      { numRuns: 150 },
    );
    expect(cuts).toBeGreaterThan(75);
  });
});
