/**
 * Scanning primitives shared by the JSON cuts. None of them parses values: they follow the
 * structure with one character-class lookup per character and jump over strings with native
 * `indexOf`, so a scan costs a few milliseconds per megabyte and allocates nothing per item.
 */

export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
export const QUOTE_CODE = 34;

// Character classes. A table lookup per character keeps the hot loop to one load and one branch
// for the common case (plain characters inside nested values).
export const OTHER = 0;
export const WHITESPACE = 1;
export const QUOTE = 2;
export const OPENER = 3;
export const CLOSER = 4;
export const COMMA = 5;
export const COLON = 6;
export const CHARACTER_CLASS = new Uint8Array(65_536);
for (const code of [32, 9, 10, 13]) CHARACTER_CLASS[code] = WHITESPACE;
CHARACTER_CLASS[QUOTE_CODE] = QUOTE;
CHARACTER_CLASS[OPEN_BRACKET] = OPENER;
CHARACTER_CLASS[OPEN_BRACE] = OPENER;
CHARACTER_CLASS[CLOSE_BRACKET] = CLOSER;
CHARACTER_CLASS[CLOSE_BRACE] = CLOSER;
CHARACTER_CLASS[44] = COMMA;
CHARACTER_CLASS[58] = COLON;

export function isJsonWhitespace(code: number): boolean {
  return CHARACTER_CLASS[code] === WHITESPACE;
}

/** Index of the first non-whitespace character at or after `from`, or -1 before `limit`. */
export function firstNonWhitespace(text: string, from = 0, limit = text.length): number {
  for (let index = from; index < limit; index++) if (!isJsonWhitespace(text.charCodeAt(index))) return index;
  return -1;
}

/** Index of the last non-whitespace character, or -1. */
export function lastNonWhitespace(text: string): number {
  for (let index = text.length - 1; index >= 0; index--)
    if (!isJsonWhitespace(text.charCodeAt(index))) return index;
  return -1;
}

/**
 * Index of the quote closing the string opened at `open`, or -1 before `limit`. Jumps between
 * quotes with the native `indexOf` (much faster than a character loop over long strings) and
 * skips quotes escaped by an odd run of backslashes.
 */
export function closingQuote(text: string, open: number, limit: number): number {
  for (let from = open + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote === -1 || quote >= limit) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Item boundaries of a JSON array relative to a head cut and a tail cut. */
export interface ArrayLayout {
  /** Index of the closing bracket. */
  close: number;
  total: number;
  firstItemStart: number;
  lastItemEnd: number;
  /** Items that end at or before the head cut, and where the last of them ends. */
  headCount: number;
  headEnd: number;
  /** Start of the item after the head items. */
  afterHeadStart: number;
  /** Index of the first item that starts at or after the tail cut (total when none), and its start. */
  tailFirstIndex: number;
  tailStart: number;
  /** End of the item just before the first tail item. */
  beforeTailEnd: number;
}

/**
 * One forward scan over the JSON array opened at `open`, up to its closing bracket (before
 * `limit`), counting its items and locating the boundaries around the cut points. Strings are
 * skipped in an inner loop; anything that does not look like an array (unbalanced brackets, an
 * unterminated string, a trailing comma) returns `undefined` at the first sign, so a log line that
 * merely starts with "[" costs almost nothing.
 */
export function scanArray(
  text: string,
  open: number,
  limit: number,
  headCut: number,
  tailCut: number,
): ArrayLayout | undefined {
  const layout: ArrayLayout = {
    close: -1,
    total: 0,
    firstItemStart: -1,
    lastItemEnd: open + 1,
    headCount: 0,
    headEnd: open + 1,
    afterHeadStart: -1,
    tailFirstIndex: -1,
    tailStart: -1,
    beforeTailEnd: -1,
  };
  let depth = 1;
  let inItem = false;
  let lastSignificant = open;
  const startItem = (index: number): void => {
    inItem = true;
    if (layout.firstItemStart === -1) layout.firstItemStart = index;
    // Head items are contiguous from the start, so the last item starting right after them wins.
    if (layout.total === layout.headCount && layout.total > 0) layout.afterHeadStart = index;
    if (layout.tailFirstIndex === -1 && index >= tailCut) {
      layout.tailFirstIndex = layout.total;
      layout.tailStart = index;
      layout.beforeTailEnd = layout.lastItemEnd;
    }
  };
  const endItem = (end: number): void => {
    inItem = false;
    if (end <= headCut && layout.headCount === layout.total) {
      layout.headCount = layout.total + 1;
      layout.headEnd = end;
    }
    layout.total += 1;
    layout.lastItemEnd = end;
  };
  let index = open + 1;
  for (; index < limit; index++) {
    const kind = CHARACTER_CLASS[text.charCodeAt(index)]!;
    if (kind <= WHITESPACE) {
      if (kind === OTHER && depth === 1) {
        if (!inItem) startItem(index);
        lastSignificant = index;
      }
      continue;
    }
    if (kind === QUOTE) {
      if (depth === 1 && !inItem) startItem(index);
      const end = closingQuote(text, index, limit);
      if (end === -1) return undefined;
      index = end;
      if (depth === 1) lastSignificant = index;
      continue;
    }
    if (kind === OPENER) {
      if (depth === 1 && !inItem) startItem(index);
      depth += 1;
      continue;
    }
    if (kind === CLOSER) {
      depth -= 1;
      if (depth === 0) break;
      if (depth === 1) lastSignificant = index;
      continue;
    }
    if (kind === COLON) {
      if (depth === 1) return undefined;
      continue;
    }
    // A comma: only those between this array's items matter.
    if (depth === 1) {
      if (!inItem) return undefined;
      endItem(lastSignificant + 1);
    }
  }
  if (depth !== 0 || text.charCodeAt(index) !== CLOSE_BRACKET) return undefined;
  layout.close = index;
  if (inItem) endItem(lastSignificant + 1);
  else if (layout.total > 0) return undefined; // trailing comma
  if (layout.tailFirstIndex === -1) {
    layout.tailFirstIndex = layout.total;
    layout.tailStart = index;
    layout.beforeTailEnd = layout.lastItemEnd;
  }
  return layout;
}

/**
 * End (exclusive) of the container opened at `open`, following nesting and strings only, or -1
 * when it is not closed before `limit`.
 */
export function skipContainer(text: string, open: number, limit: number): number {
  let depth = 0;
  for (let index = open; index < limit; index++) {
    const kind = CHARACTER_CLASS[text.charCodeAt(index)]!;
    if (kind === QUOTE) {
      const end = closingQuote(text, index, limit);
      if (end === -1) return -1;
      index = end;
    } else if (kind === OPENER) {
      depth += 1;
    } else if (kind === CLOSER) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** End (exclusive) of a number or literal starting at `start`: the next delimiter or whitespace. */
export function skipScalar(text: string, start: number, limit: number): number {
  let index = start;
  while (index < limit && CHARACTER_CLASS[text.charCodeAt(index)] === OTHER) index++;
  return index;
}
