import type { CutPlan, CutPoints, CutRequest } from './cut-plan';
import {
  type ArrayLayout,
  CLOSE_BRACKET,
  firstNonWhitespace,
  lastNonWhitespace,
  OPEN_BRACKET,
  scanArray,
} from './json-scan';
import { type NoticeLanguage, omissionMarker, type OmissionStats } from './truncation-notice';

/** An array rendered with its middle items replaced by one marker string element. */
export interface ArrayCut {
  text: string;
  /** Characters of the array's text left out. */
  omittedCharacters: number;
  omittedItems: number;
  totalItems: number;
}

/**
 * Renders the array opened at `open` (scanned into `layout`) with the items between the head and
 * tail items replaced by a marker *string element* ("[... 9,812 of 10,000 items omitted ...]"),
 * so the result is still a valid array. With no head or tail item, the marker is the only element.
 */
export function renderArrayCut(
  text: string,
  open: number,
  layout: ArrayLayout,
  language: NoticeLanguage,
): ArrayCut {
  const tailCount = layout.total - layout.tailFirstIndex;
  const headCount = Math.min(layout.headCount, layout.tailFirstIndex);
  const omitted = layout.total - headCount - tailCount;
  const end = layout.close + 1;
  // Every item fits: there is nothing to mark, and a marker with no item after the head would need
  // a separator the text does not have ("[... 0 of 1 items omitted ...]" without its comma).
  if (omitted === 0 && layout.total > 0) {
    return { text: text.slice(open, end), omittedCharacters: 0, omittedItems: 0, totalItems: layout.total };
  }
  if (headCount + tailCount === 0 || layout.total === 0) {
    const from = layout.total === 0 ? open + 1 : layout.firstItemStart;
    const to = layout.total === 0 ? layout.close : layout.lastItemEnd;
    const stats: OmissionStats = { characters: to - from, items: { omitted, total: layout.total } };
    return {
      text: `[${JSON.stringify(omissionMarker(stats, language))}]`,
      omittedCharacters: end - open,
      omittedItems: omitted,
      totalItems: layout.total,
    };
  }
  const separator =
    headCount > 0 && layout.afterHeadStart !== -1
      ? text.slice(layout.headEnd, layout.afterHeadStart)
      : text.slice(layout.beforeTailEnd, layout.tailStart);
  const omittedFrom = headCount > 0 ? layout.headEnd : layout.firstItemStart;
  const omittedTo = tailCount > 0 ? layout.tailStart : layout.lastItemEnd;
  const stats: OmissionStats = {
    characters: omittedTo - omittedFrom,
    items: { omitted, total: layout.total },
  };
  const head =
    headCount > 0 ? text.slice(open, layout.headEnd) + separator : text.slice(open, layout.firstItemStart);
  const tail =
    tailCount > 0 ? separator + text.slice(layout.tailStart, end) : text.slice(layout.lastItemEnd, end);
  return {
    text: head + JSON.stringify(omissionMarker(stats, language)) + tail,
    omittedCharacters: stats.characters,
    omittedItems: omitted,
    totalItems: layout.total,
  };
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
  const layout = scanArray(text, open, close + 1, cut.headEnd, cut.tailStart);
  if (layout === undefined || layout.close !== close || layout.total === 0) return undefined;
  const tailCount = layout.total - layout.tailFirstIndex;
  const headCount = Math.min(layout.headCount, layout.tailFirstIndex);
  if (layout.total - headCount - tailCount <= 0 || headCount + tailCount === 0) return undefined;
  const arrayCut = renderArrayCut(text, open, layout, language);
  return {
    strategy: 'json-array',
    text: text.slice(0, open) + arrayCut.text + text.slice(close + 1),
    keptCharacters: text.length - arrayCut.omittedCharacters,
    stats: {
      characters: arrayCut.omittedCharacters,
      items: { omitted: arrayCut.omittedItems, total: arrayCut.totalItems },
    },
  };
}
