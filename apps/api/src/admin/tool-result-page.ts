/**
 * One page of a text: where it starts, its characters, the whole length, and where the next and the
 * previous page start (so a reader pages both ways without remembering where it has been).
 */
export interface TextPage {
  readonly offset: number;
  readonly content: string;
  readonly totalCharacters: number;
  readonly nextOffset: number | null;
  readonly previousOffset: number | null;
}

const highSurrogate = /[\uD800-\uDBFF]/;

const lowSurrogate = /[\uDC00-\uDFFF]/;

/**
 * Where the page of `limit` characters before `offset` starts: `limit` back, or one less when that
 * lands between the halves of a surrogate pair; null on the first page.
 */
function previousPageStart(text: string, offset: number, limit: number): number | null {
  if (offset === 0) return null;
  const start = Math.max(0, offset - limit);
  return start > 0 && lowSurrogate.test(text[start] ?? '') ? start - 1 : start;
}

/**
 * Cuts `limit` characters (UTF-16 code units) from `offset`. A page never ends between the two
 * halves of a surrogate pair (it is one shorter then, or one longer when `limit` is 1), so the
 * pages read one after another by `nextOffset` concatenate to the whole text.
 * The caller checks `offset <= text.length`.
 */
export function pageOfText(text: string, offset: number, limit: number): TextPage {
  let end = Math.min(text.length, offset + limit);
  if (end < text.length && highSurrogate.test(text[end - 1] ?? ''))
    end = end - 1 > offset ? end - 1 : end + 1;
  return {
    offset,
    content: text.slice(offset, end),
    totalCharacters: text.length,
    nextOffset: end < text.length ? end : null,
    previousOffset: previousPageStart(text, offset, limit),
  };
}
