import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_MAX_CHARS, nextChunkEnd, previousChunkStart, splitsSurrogatePair } from './text-chunks';

const texts = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 4000 }),
  fc.string({ unit: fc.constantFrom('x', ' ', '\n', '😀', '界'), maxLength: 5000 }),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 30 }), fc.integer({ min: 1, max: 300 }))
    .map(([piece, times]) => piece.repeat(times)),
);

function forwardChunks(text: string): [number, number][] {
  const chunks: [number, number][] = [];
  for (let start = 0; start < text.length;) {
    const end = nextChunkEnd(text, start);
    chunks.push([start, end]);
    start = end;
  }
  return chunks;
}

describe('text chunks', () => {
  it('cover the text with chunks of at most CHUNK_MAX_CHARS that never split a surrogate pair', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const chunks = forwardChunks(text);
        expect(chunks.map(([start, end]) => text.slice(start, end)).join('')).toBe(text);
        for (const [start, end] of chunks) {
          expect(end - start).toBeGreaterThan(0);
          expect(end - start).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
          expect(splitsSurrogatePair(text, end)).toBe(false);
        }
      }),
    );
  });

  it('chunk a prefix exactly like the text up to the prefix’s last chunk', () => {
    fc.assert(
      fc.property(texts, fc.double({ min: 0, max: 1, noNaN: true }), (text, fraction) => {
        const cut = Math.floor(text.length * fraction);
        const whole = forwardChunks(text);
        const prefix = forwardChunks(text.slice(0, cut));
        const complete = whole.filter(([, end]) => end <= cut);
        expect(prefix.slice(0, complete.length)).toEqual(complete);
        expect(prefix.length - complete.length).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('walk backwards over the whole text without splitting surrogate pairs', () => {
    fc.assert(
      fc.property(texts, (text) => {
        let end = text.length;
        let steps = 0;
        while (end > 0) {
          const start = previousChunkStart(text, end);
          expect(start).toBeLessThan(end);
          expect(end - start).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
          expect(splitsSurrogatePair(text, start)).toBe(false);
          end = start;
          steps += 1;
        }
        expect(steps).toBeLessThanOrEqual(text.length);
      }),
    );
  });

  it('detects the middle of a surrogate pair', () => {
    const text = 'a😀b';
    expect([0, 1, 2, 3, 4].map((index) => splitsSurrogatePair(text, index))).toEqual([
      false,
      false,
      true,
      false,
      false,
    ]);
  });
});
