import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOfText } from './tool-result-page';

/** Reads every page by following `nextOffset`. */
function readAll(text: string, limit: number): string[] {
  const pages: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = pageOfText(text, offset, limit);
    pages.push(page.content);
    offset = page.nextOffset;
  }
  return pages;
}

describe('pageOfText', () => {
  it('pages concatenate to the whole text and never split a surrogate pair', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom('a', 'é', '😀', '\n', '𝄞'), { maxLength: 200 })
          .map((parts) => parts.join('')),
        fc.integer({ min: 1, max: 40 }),
        (text, limit) => {
          const pages = readAll(text, limit);
          expect(pages.join('')).toBe(text);
          for (const page of pages) {
            expect(page.length).toBeLessThanOrEqual(limit + 1);
            expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(page)).toBe(false);
          }
        },
      ),
    );
  });

  it('says where the next page starts, and null on the last', () => {
    expect(pageOfText('abcdef', 0, 4)).toEqual({
      offset: 0,
      content: 'abcd',
      totalCharacters: 6,
      nextOffset: 4,
      previousOffset: null,
    });
    expect(pageOfText('abcdef', 4, 4)).toEqual({
      offset: 4,
      content: 'ef',
      totalCharacters: 6,
      nextOffset: null,
      previousOffset: 0,
    });
    expect(pageOfText('', 0, 4)).toEqual({
      offset: 0,
      content: '',
      totalCharacters: 0,
      nextOffset: null,
      previousOffset: null,
    });
  });

  it('ends a page before a surrogate pair rather than inside it', () => {
    expect(pageOfText('ab😀c', 0, 3)).toMatchObject({ content: 'ab', nextOffset: 2 });
    expect(pageOfText('😀c', 0, 1)).toMatchObject({ content: '😀', nextOffset: 2 });
  });

  it('says where the previous page starts, never between the halves of a surrogate pair', () => {
    expect(pageOfText('abcdefghij', 8, 4)).toMatchObject({ content: 'ij', previousOffset: 4 });
    expect(pageOfText('abcdefghij', 3, 4)).toMatchObject({ previousOffset: 0 });
    // 4 back from offset 5 is 1, the second half of 😀: the previous page starts at 0 instead.
    expect(pageOfText('😀bcdef', 5, 4)).toMatchObject({ content: 'ef', previousOffset: 0 });
  });
});
