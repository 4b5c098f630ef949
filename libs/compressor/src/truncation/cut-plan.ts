import type { TokenCounter } from '../tokens/count-tokens';
import { splitsSurrogatePair } from '../tokens/text-chunks';
import { omissionMarker, type NoticeLanguage, type OmissionStats } from './truncation-notice';

/**
 * How a text was cut: between the items of a top-level JSON array, inside the arrays (and long
 * strings) of a JSON object, between NDJSON records, between CSV/TSV rows under the kept header,
 * on line boundaries, or at characters.
 */
export type CutStrategy = 'json-array' | 'json-object' | 'ndjson' | 'csv' | 'lines' | 'text';

/** A planned cut: what is kept from the start and the end, and the text that replaces the middle. */
export interface CutPlan {
  strategy: CutStrategy;
  /** The kept start, separators and marker, and the kept end, joined. */
  text: string;
  /** Characters of the original kept (head + tail). */
  keptCharacters: number;
  stats: OmissionStats;
}

/** What every cut strategy needs. */
export interface CutRequest {
  text: string;
  counter: TokenCounter;
  headTokens: number;
  tailTokens: number;
  /** Character caps for head and tail, from the provider's per-message character limit. */
  maxHeadCharacters: number;
  maxTailCharacters: number;
  language: NoticeLanguage;
}

/** Where the kept head ends and the kept tail starts (`headEnd <= tailStart`). */
export interface CutPoints {
  headEnd: number;
  tailStart: number;
}

/**
 * Head end and tail start under both the token and the character caps. The head is found by one
 * forward chunk scan, the tail by one backward scan; each tokenizes only about its own budget.
 */
export function findCutPoints(request: CutRequest): CutPoints {
  const { text, counter } = request;
  let headEnd = Math.min(counter.longestPrefixWithin(text, request.headTokens), request.maxHeadCharacters);
  if (splitsSurrogatePair(text, headEnd)) headEnd -= 1;
  let tailStart = Math.max(
    counter.longestSuffixWithin(text, request.tailTokens),
    text.length - request.maxTailCharacters,
  );
  if (splitsSurrogatePair(text, tailStart)) tailStart += 1;
  return { headEnd, tailStart: Math.max(tailStart, headEnd) };
}

/** Counts line feeds in `text[start, end)` with native searches (one linear pass, no allocation). */
export function countLineFeeds(text: string, start: number, end: number): number {
  let count = 0;
  for (
    let index = text.indexOf('\n', start);
    index !== -1 && index < end;
    index = text.indexOf('\n', index + 1)
  ) {
    count++;
  }
  return count;
}

/** A line-boundary snap may drop at most this share of the side's characters (and at least this many characters). */
const LINE_SNAP_SHARE = 0.25;
const LINE_SNAP_MIN_CHARACTERS = 256;

/**
 * Cuts plain text: on line boundaries when lines are short enough near both cut points (logs,
 * CSV, SQL output), otherwise at the exact character positions found.
 */
export function planTextCut(request: CutRequest, cut: CutPoints): CutPlan {
  const { text, language } = request;
  const { headEnd, tailStart } = cut;
  const headLineEnd = snapHeadToLine(text, headEnd);
  const tailLineStart = snapTailToLine(text, tailStart);
  const lineFeeds =
    headLineEnd !== undefined && tailLineStart !== undefined && headLineEnd <= tailLineStart
      ? countLineFeeds(text, headLineEnd, tailLineStart)
      : 0;
  if (lineFeeds > 0 && headLineEnd !== undefined && tailLineStart !== undefined) {
    // The omitted middle starts at a line start; its last line may lack a line feed only at the end of the text.
    const unterminatedLastLine = text.charCodeAt(tailLineStart - 1) !== 10 ? 1 : 0;
    const stats: OmissionStats = {
      characters: tailLineStart - headLineEnd,
      lines: lineFeeds + unterminatedLastLine,
    };
    const head = text.slice(0, headLineEnd);
    const tail = text.slice(tailLineStart);
    const opening = head.length === 0 || head.endsWith('\n') ? '' : '\n';
    return {
      strategy: 'lines',
      text: `${head}${opening}${omissionMarker(stats, language)}\n${tail}`,
      keptCharacters: head.length + tail.length,
      stats,
    };
  }
  const stats: OmissionStats = { characters: tailStart - headEnd };
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  return {
    strategy: 'text',
    text: `${head}\n\n${omissionMarker(stats, language)}\n\n${tail}`,
    keptCharacters: head.length + tail.length,
    stats,
  };
}

function maxSnap(kept: number): number {
  return Math.max(LINE_SNAP_MIN_CHARACTERS, Math.floor(kept * LINE_SNAP_SHARE));
}

/** End of the last whole line within `text[0, headEnd)`, if one ends close enough to the cut. */
function snapHeadToLine(text: string, headEnd: number): number | undefined {
  if (headEnd === 0 || text.charCodeAt(headEnd - 1) === 10) return headEnd;
  const lineFeed = text.lastIndexOf('\n', headEnd - 1);
  if (lineFeed === -1 || headEnd - (lineFeed + 1) > maxSnap(headEnd)) return undefined;
  return lineFeed + 1;
}

/** Start of the first whole line within `text[tailStart, end)`, if one starts close enough to the cut. */
function snapTailToLine(text: string, tailStart: number): number | undefined {
  if (tailStart === text.length || tailStart === 0 || text.charCodeAt(tailStart - 1) === 10) return tailStart;
  const lineFeed = text.indexOf('\n', tailStart);
  if (lineFeed === -1 || lineFeed + 1 - tailStart > maxSnap(text.length - tailStart)) return undefined;
  return lineFeed + 1;
}
