import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logLines } from '../test-support/scratchpad-fixtures';
import { createTokenCounter } from '../tokens/count-tokens';
import { planTextCut } from './cut-plan';
import { truncateText, type TextTruncation } from './truncate-text';
import { hasTruncationNotice, truncationNotice } from './truncation-notice';

const counter = createTokenCounter({ model: 'gpt-4o' });
const MARKER = /\[\.\.\. [^\]]* \.\.\.\]/;

function truncated(result: TextTruncation | undefined): Extract<TextTruncation, { truncated: true }> {
  if (result === undefined || !result.truncated)
    throw new Error(`expected a truncation, got ${JSON.stringify(result)?.slice(0, 200)}`);
  return result;
}

/** Splits a truncated output into notice, head, marker and tail. */
function parts(output: string, notice: string): { head: string; marker: string; tail: string } {
  expect(output.startsWith(notice)).toBe(true);
  const body = output.slice(notice.length);
  const match = MARKER.exec(body);
  if (match === null) throw new Error('no marker');
  return {
    head: body.slice(0, match.index),
    marker: match[0],
    tail: body.slice(match.index + match[0].length),
  };
}

describe('truncateText', () => {
  it('returns a text within the target unchanged, without a notice', () => {
    const text = logLines(20);
    const result = truncateText(text, { targetTokens: 2000, counter });
    expect(result).toEqual({ truncated: false, text, tokens: counter.countText(text) });
    expect(hasTruncationNotice(result!.text)).toBe(false);
  });

  it('puts the notice first, then the start, a marker and the end, under the target by the same counter', () => {
    const text = 'word '.repeat(20_000).trim();
    const result = truncated(truncateText(text, { targetTokens: 1000, counter }));
    expect(result.tokens).toBe(counter.countText(result.text));
    expect(result.tokens).toBeLessThanOrEqual(1000);
    expect(result.tokens).toBeGreaterThan(900);
    const { head, marker, tail } = parts(result.text, truncationNotice('en'));
    expect(text.startsWith(head.replace(/\n\n$/, ''))).toBe(true);
    expect(text.endsWith(tail.replace(/^\n\n/, ''))).toBe(true);
    expect(marker).toBe(`[... ${result.stats.characters.toLocaleString('en-US')} characters omitted ...]`);
    expect(result.strategy).toBe('text');
  });

  it('keeps about 60% of the kept tokens at the start and 40% at the end', () => {
    const text = Array.from({ length: 30_000 }, (_, index) => `w${index}`).join(' ');
    const result = truncated(truncateText(text, { targetTokens: 3000, counter }));
    const { head, tail } = parts(result.text, truncationNotice('en'));
    const headTokens = counter.countText(head);
    const tailTokens = counter.countText(tail);
    expect(headTokens / (headTokens + tailTokens)).toBeGreaterThan(0.55);
    expect(headTokens / (headTokens + tailTokens)).toBeLessThan(0.65);
  });

  it('cuts line-oriented text on line boundaries and states the exact number of omitted lines', () => {
    const text = logLines(5000);
    const result = truncated(truncateText(text, { targetTokens: 1500, counter }));
    expect(result.strategy).toBe('lines');
    const { head, marker, tail } = parts(result.text, truncationNotice('en'));
    expect(head.endsWith('\n')).toBe(true);
    expect(tail.startsWith('\n')).toBe(true);
    const keptLines = [...head.split('\n'), ...tail.split('\n')].filter((line) => line !== '');
    for (const line of keptLines) expect(text.split('\n')).toContain(line);
    expect(result.stats.lines).toBe(5000 - keptLines.length);
    expect(marker).toBe(
      `[... ${(5000 - keptLines.length).toLocaleString('en-US')} lines omitted (${result.stats.characters.toLocaleString('en-US')} characters) ...]`,
    );
    expect(head.length + result.stats.characters + tail.length - 1).toBe(text.length);
    expect(keptLines[0]).toBe('row 0: status=ok latency=0ms user=u0');
    expect(keptLines.at(-1)).toBe(text.split('\n').at(-1));
  });

  it('counts the last omitted line of a text without a final line feed', () => {
    const text = 'l1\nl2\nl3\nl4';
    const request = {
      text,
      counter,
      headTokens: 0,
      tailTokens: 0,
      maxHeadCharacters: 99,
      maxTailCharacters: 99,
      language: 'en' as const,
    };
    const toEnd = planTextCut(request, { headEnd: 3, tailStart: text.length });
    expect(toEnd.strategy).toBe('lines');
    expect(toEnd.stats).toEqual({ characters: 8, lines: 3 });
    expect(toEnd.text).toBe('l1\n[... 3 lines omitted (8 characters) ...]\n');
    const middle = planTextCut(request, { headEnd: 3, tailStart: 9 });
    expect(middle.stats).toEqual({ characters: 6, lines: 2 });
    expect(middle.text).toBe('l1\n[... 2 lines omitted (6 characters) ...]\nl4');
  });

  it('reserves the notice and marker inside the target for any target', () => {
    const text = logLines(3000);
    for (const target of [140, 200, 333, 512, 1024, 4096]) {
      const result = truncated(
        truncateText(text, { targetTokens: target, counter, storedResultId: 'tr_0123456789abcdef01234567' }),
      );
      expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
      expect(hasTruncationNotice(result.text)).toBe(true);
    }
  });

  it('falls back to the compact notice when no data fits next to the full notice, and gives up below that', () => {
    const text = logLines(3000);
    const compact = truncated(truncateText(text, { targetTokens: 60, counter, storedResultId: 'tr_1' }));
    expect(compact.strategy).toBe('notice-only');
    expect(compact.text).toContain('INCOMPLETE');
    expect(compact.text).toContain('"tr_1"');
    expect(counter.countText(compact.text)).toBeLessThanOrEqual(60);
    // The seed returned the whole over-budget text when the target was ≤ 0; here nothing over the target comes back.
    expect(truncateText(text, { targetTokens: 10, counter })).toBeUndefined();
    expect(truncateText(text, { targetTokens: 0, counter })).toBeUndefined();
  });

  it('cuts a text under the character cap even when its tokens fit', () => {
    const text = ' '.repeat(50_000) + 'end';
    const result = truncated(truncateText(text, { targetTokens: 1_000_000, counter, maxCharacters: 5000 }));
    expect(result.text.length).toBeLessThanOrEqual(5000);
    expect(hasTruncationNotice(result.text)).toBe(true);
  });

  it('never splits an emoji and never throws on special tokens', () => {
    const text = '😀🇫🇷<|endoftext|>界'.repeat(5000);
    const result = truncated(truncateText(text, { targetTokens: 700, counter }));
    expect(result.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(counter.countText(result.text)).toBeLessThanOrEqual(700);
  });

  it('writes the notice and marker in French when asked', () => {
    const result = truncated(truncateText(logLines(3000), { targetTokens: 800, counter, language: 'fr' }));
    expect(result.text.startsWith(truncationNotice('fr'))).toBe(true);
    expect(result.text).toMatch(/lignes omises/);
  });

  it('can leave the notice out (for rendering inputs to the summarizer)', () => {
    const result = truncated(truncateText(logLines(3000), { targetTokens: 300, counter, notice: false }));
    expect(hasTruncationNotice(result.text)).toBe(false);
    expect(result.text).toMatch(/lines omitted/);
  });

  it('holds its invariants for arbitrary texts and targets', () => {
    const texts = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 2000 }),
      fc.string({ unit: 'binary', maxLength: 2000 }),
      fc.string({
        unit: fc.constantFrom('x', ' ', '\n', '😀', '<|endoftext|>', '\ud800', '[', ']', ',', '"'),
        maxLength: 3000,
      }),
      fc
        .tuple(fc.string({ maxLength: 60 }), fc.integer({ min: 1, max: 3000 }))
        .map(([piece, times]) => piece.repeat(times)),
    );
    fc.assert(
      fc.property(texts, fc.integer({ min: 0, max: 1500 }), (text, target) => {
        const result = truncateText(text, { targetTokens: target, counter, storedResultId: 'tr_x' });
        const fits = counter.countText(text) <= target;
        if (fits) {
          expect(result).toEqual({ truncated: false, text, tokens: counter.countText(text) });
          return;
        }
        if (result === undefined) return;
        expect(result.truncated).toBe(true);
        expect(counter.countText(result.text)).toBeLessThanOrEqual(target);
        expect(hasTruncationNotice(result.text)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
