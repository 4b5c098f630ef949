/** One page of a text: where it starts, its characters, the whole length and where the next starts. */
export interface TextPage {
  readonly offset: number;
  readonly content: string;
  readonly totalCharacters: number;
  readonly nextOffset: number | null;
}

const highSurrogate = /[\uD800-\uDBFF]/;

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
  };
}
