import type { CutPlan, CutPoints, CutRequest } from './cut-plan';
import { omissionMarker, type OmissionStats } from './truncation-notice';

const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

// Character classes for the array scan. A table lookup per character keeps the hot loop to one
// load and one branch for the common case (plain characters inside nested values).
const OTHER = 0;
const WHITESPACE = 1;
const QUOTE = 2;
const OPENER = 3;
const CLOSER = 4;
const COMMA = 5;
const CHARACTER_CLASS = new Uint8Array(65_536);
for (const code of [32, 9, 10, 13]) CHARACTER_CLASS[code] = WHITESPACE;
CHARACTER_CLASS[34] = QUOTE;
CHARACTER_CLASS[OPEN_BRACKET] = OPENER;
CHARACTER_CLASS[123] = OPENER;
CHARACTER_CLASS[CLOSE_BRACKET] = CLOSER;
CHARACTER_CLASS[125] = CLOSER;
CHARACTER_CLASS[44] = COMMA;

function isJsonWhitespace(code: number): boolean {
  return CHARACTER_CLASS[code] === WHITESPACE;
}

/** Index of the first non-whitespace character, or -1. */
function firstNonWhitespace(text: string): number {
  for (let index = 0; index < text.length; index++)
    if (!isJsonWhitespace(text.charCodeAt(index))) return index;
  return -1;
}

/** Index of the last non-whitespace character, or -1. */
function lastNonWhitespace(text: string): number {
  for (let index = text.length - 1; index >= 0; index--)
    if (!isJsonWhitespace(text.charCodeAt(index))) return index;
  return -1;
}

/**
 * Index of the quote closing the string opened at `open`, or -1 before `limit`. Jumps between
 * quotes with the native `indexOf` (much faster than a character loop over long strings) and
 * skips quotes escaped by an odd run of backslashes.
 */
function closingQuote(text: string, open: number, limit: number): number {
  for (let from = open + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote === -1 || quote >= limit) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Item boundaries of a top-level JSON array relative to a head cut and a tail cut. */
interface ArrayLayout {
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
 * One forward scan over a top-level JSON array, counting its items and locating the boundaries
 * around the cut points. Strings are skipped in an inner loop; anything that does not look like an
 * array (unbalanced brackets, text after the closing bracket, an unterminated string) returns
 * `undefined` at the first sign, so a log line that merely starts with "[" costs almost nothing.
 */
function scanArray(
  text: string,
  open: number,
  close: number,
  headCut: number,
  tailCut: number,
): ArrayLayout | undefined {
  const layout: ArrayLayout = {
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
  for (let index = open + 1; index < close; index++) {
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
      const end = closingQuote(text, index, close);
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
      if (depth < 1) return undefined;
      if (depth === 1) lastSignificant = index;
      continue;
    }
    // A comma: only those between top-level items matter.
    if (depth === 1) {
      if (!inItem) return undefined;
      endItem(lastSignificant + 1);
    }
  }
  if (depth !== 1) return undefined;
  if (inItem) endItem(lastSignificant + 1);
  else if (layout.total > 0) return undefined; // trailing comma
  if (layout.tailFirstIndex === -1) {
    layout.tailFirstIndex = layout.total;
    layout.tailStart = close;
    layout.beforeTailEnd = layout.lastItemEnd;
  }
  return layout;
}

/**
 * Cuts a top-level JSON array between items: keeps the first and last items that fit, and puts a
 * marker *string element* in place of the rest ("[... 9,812 of 10,000 items omitted ...]"), so the
 * result is still a valid array when the original was. Returns `undefined` when the text is not an
 * array or when not even one whole item fits, and the caller cuts it as text.
 */
export function planJsonArrayCut(request: CutRequest, cut: CutPoints): CutPlan | undefined {
  const { text, language } = request;
  const open = firstNonWhitespace(text);
  const close = lastNonWhitespace(text);
  if (open === -1 || text.charCodeAt(open) !== OPEN_BRACKET || text.charCodeAt(close) !== CLOSE_BRACKET)
    return undefined;
  const { headEnd: headCut, tailStart: tailCut } = cut;
  const layout = scanArray(text, open, close, headCut, tailCut);
  if (layout === undefined || layout.total === 0) return undefined;
  const tailCount = layout.total - layout.tailFirstIndex;
  const headCount = Math.min(layout.headCount, layout.tailFirstIndex);
  const omitted = layout.total - headCount - tailCount;
  if (omitted <= 0 || headCount + tailCount === 0) return undefined;

  const separator =
    headCount > 0 && layout.afterHeadStart !== -1
      ? text.slice(layout.headEnd, layout.afterHeadStart)
      : tailCount > 0
        ? text.slice(layout.beforeTailEnd, layout.tailStart)
        : ', ';
  const omittedFrom = headCount > 0 ? layout.headEnd : layout.firstItemStart;
  const omittedTo = tailCount > 0 ? layout.tailStart : layout.lastItemEnd;
  const stats: OmissionStats = {
    characters: omittedTo - omittedFrom,
    items: { omitted, total: layout.total },
  };
  const head =
    headCount > 0 ? text.slice(0, layout.headEnd) + separator : text.slice(0, layout.firstItemStart);
  const tail = tailCount > 0 ? separator + text.slice(layout.tailStart) : text.slice(layout.lastItemEnd);
  return {
    strategy: 'json-array',
    text: head + JSON.stringify(omissionMarker(stats, language)) + tail,
    keptCharacters: text.length - stats.characters,
    stats,
  };
}
