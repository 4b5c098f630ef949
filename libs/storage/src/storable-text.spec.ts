import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// Independent of the code under test: UTF-8 cannot carry an unpaired surrogate, so it does not survive a round trip.
const isWellFormed = (text: string): boolean => Buffer.from(text, 'utf8').toString('utf8') === text;
import { findUnstorableText, unstorableTextProblem } from './storable-text';

describe('unstorableTextProblem', () => {
  it.each([
    ['lone \udc00 surrogate', 'contains an unpaired UTF-16 surrogate at index 5 (U+DC00)'],
    ['\ud800', 'contains an unpaired UTF-16 surrogate at index 0 (U+D800)'],
    ['ab\ud83d', 'contains an unpaired UTF-16 surrogate at index 2 (U+D83D)'],
    ['\ude00\ud83d', 'contains an unpaired UTF-16 surrogate at index 0 (U+DE00)'],
    ['a\u0000b', 'contains a NUL character (U+0000), which cannot be stored (at index 1)'],
    ['\u0000\ud800', 'contains a NUL character (U+0000), which cannot be stored (at index 0)'],
  ])('names the first problem of %j', (text, problem) => {
    expect(unstorableTextProblem(text)).toBe(problem);
  });

  it('accepts paired surrogates (emoji) and every other character', () => {
    expect(unstorableTextProblem('😀 \ud83d\ude00 \u0001 \uffff \ufffd')).toBeUndefined();
  });

  it('refuses exactly the strings that are not well-formed or hold NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const storable = isWellFormed(text) && !text.includes('\u0000');
        expect(unstorableTextProblem(text) === undefined).toBe(storable);
      }),
    );
  });
});

describe('findUnstorableText', () => {
  it('finds values and keys at any depth, with their path', () => {
    expect(findUnstorableText({ a: [1, { b: 'x\u0000' }] })).toEqual({
      path: ['a', 1, 'b'],
      problem: 'contains a NUL character (U+0000), which cannot be stored (at index 1)',
    });
    expect(findUnstorableText({ metadata: { 'lone \udc00': 'x' } })).toEqual({
      path: ['metadata'],
      key: 'lone \udc00',
      problem: 'contains an unpaired UTF-16 surrogate at index 5 (U+DC00)',
    });
    expect(findUnstorableText('\ud800')).toEqual({ path: [], problem: expect.any(String) });
    expect(findUnstorableText({ a: ['ok', 1, null, true, { b: '😀' }] })).toBeUndefined();
  });

  it('walks a value nested 200,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 'bad \udfff';
    for (let level = 0; level < 200_000; level += 1) deep = level % 2 === 0 ? [deep] : { k: deep };
    const found = findUnstorableText(deep);
    expect(found?.path).toHaveLength(200_000);
    expect(found?.problem).toContain('unpaired UTF-16 surrogate');
  });
});
