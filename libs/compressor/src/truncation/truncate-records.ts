import { countLineFeeds, type CutPlan, type CutPoints, type CutRequest } from './cut-plan';
import { firstNonWhitespace, lastNonWhitespace, OPEN_BRACE, OPEN_BRACKET } from './json-scan';
import { omissionMarker, type OmissionStats } from './truncation-notice';

/**
 * Format detection reads only a few lines, never the whole text: lines longer than this are not
 * probed (and such a text is cut by another strategy).
 */
const MAX_PROBED_LINE_CHARACTERS = 65_536;
/** CSV/TSV: rows after the header whose field count is compared with the header's. */
const PROBED_ROWS = 5;
const CSV_DELIMITERS = [',', '\t', ';', '|'] as const;

/** Start of the line that contains `index` (or starts at it). */
function lineStartAt(text: string, index: number): number {
  return index <= 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
}

/** Start of the first whole line at or after `index` (the text's length when none). */
function nextLineStart(text: string, index: number): number {
  if (index <= 0 || text.charCodeAt(index - 1) === 10) return index;
  const lineFeed = text.indexOf('\n', index);
  return lineFeed === -1 ? text.length : lineFeed + 1;
}

/** The line starting at `start`, without its line break, or undefined when longer than probed. */
function probeLine(text: string, start: number): string | undefined {
  const lineFeed = text.indexOf('\n', start);
  const end = lineFeed === -1 ? text.length : lineFeed;
  if (end - start > MAX_PROBED_LINE_CHARACTERS) return undefined;
  return text.slice(start, end).replace(/\r$/, '');
}

/** The last non-empty line, or undefined when longer than probed. */
function lastLine(text: string): string | undefined {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end -= 1;
  const start = text.lastIndexOf('\n', end - 1) + 1;
  if (end - start > MAX_PROBED_LINE_CHARACTERS) return undefined;
  return text.slice(start, end);
}

/** Records in `text[start, end)`: line feeds, plus an unterminated last line at the end of the text. */
function countLines(text: string, start: number, end: number): number {
  const unterminated = end === text.length && end > start && text.charCodeAt(end - 1) !== 10 ? 1 : 0;
  return countLineFeeds(text, start, end) + unterminated;
}

function parsesAsContainer(line: string | undefined): boolean {
  if (line === undefined || line.trim() === '') return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/**
 * NDJSON / JSON Lines (one JSON object or array per line): keeps whole records from the start and
 * the end, never part of a line, and puts the marker on its own line as a JSON string
 * ("[... 9,812 of 10,000 records omitted ...]"), so every line of the result still parses. Detected
 * from the first and last lines only. Returns `undefined` for other texts or when no whole record fits.
 */
export function planNdjsonCut(request: CutRequest, cut: CutPoints): CutPlan | undefined {
  const { text, language } = request;
  const first = firstNonWhitespace(text);
  if (first === -1) return undefined;
  const firstCode = text.charCodeAt(first);
  if (firstCode !== OPEN_BRACE && firstCode !== OPEN_BRACKET) return undefined;
  const firstLine = probeLine(text, first);
  // One line is a JSON document, not a stream of records.
  if (firstLine === undefined || first + firstLine.length > lastNonWhitespace(text)) return undefined;
  if (!parsesAsContainer(firstLine) || !parsesAsContainer(lastLine(text))) return undefined;

  const headEnd = lineStartAt(text, cut.headEnd);
  const tailStart = nextLineStart(text, cut.tailStart);
  if (tailStart <= headEnd) return undefined;
  const omitted = countLines(text, headEnd, tailStart);
  const headRecords = countLines(text, 0, headEnd);
  const tailRecords = countLines(text, tailStart, text.length);
  if (omitted === 0 || headRecords + tailRecords === 0) return undefined;
  const stats: OmissionStats = {
    characters: tailStart - headEnd,
    lines: omitted,
    items: { omitted, total: headRecords + omitted + tailRecords, unit: 'records' },
  };
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  return {
    strategy: 'ndjson',
    text: `${head}${JSON.stringify(omissionMarker(stats, language))}\n${tail}`,
    keptCharacters: head.length + tail.length,
    stats,
  };
}

/** Delimiters outside double-quoted fields, or -1 when the line leaves a quote open. */
function countDelimiters(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const character of line) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && character === delimiter) count += 1;
  }
  return quoted ? -1 : count;
}

/** End of the row starting at `start` (its line feed, outside quoted fields), or -1 past the probe limit. */
function rowEnd(text: string, start: number): number {
  const limit = Math.min(text.length, start + MAX_PROBED_LINE_CHARACTERS);
  for (let position = start; ;) {
    const lineFeed = text.indexOf('\n', position);
    const quote = text.indexOf('"', position);
    if (quote !== -1 && quote < limit && (lineFeed === -1 || quote < lineFeed)) {
      const closing = text.indexOf('"', quote + 1);
      if (closing === -1 || closing >= limit) return -1;
      position = closing + 1;
      continue;
    }
    if (lineFeed === -1) return text.length <= limit ? text.length : -1;
    return lineFeed < limit ? lineFeed : -1;
  }
}

/** A header names its columns: distinct short names, none empty, none starting with a digit (timestamps, values). */
function looksLikeHeader(names: readonly string[]): boolean {
  return (
    new Set(names).size === names.length &&
    names.every((name) => name !== '' && name.length <= 64 && !/^[-+]?\d/.test(name) && !name.endsWith('.'))
  );
}

/** The delimiter of a CSV/TSV text, found from its header and first rows, or undefined. */
function detectDelimiter(text: string): { delimiter: string; headerEnd: number } | undefined {
  const header = probeLine(text, 0);
  // JSON lines have commas too; they are records, not rows.
  if (header === undefined || header.trim() === '' || /^\s*[[{]/.test(header)) return undefined;
  const headerEnd = nextLineStart(text, header.length + 1);
  const rows: string[] = [];
  for (let start = headerEnd; rows.length < PROBED_ROWS && start < text.length;) {
    const end = rowEnd(text, start);
    if (end === -1) return undefined;
    const row = text.slice(start, end).replace(/\r$/, '');
    if (row !== '') rows.push(row);
    start = end + 1;
  }
  if (rows.length < 2) return undefined;
  // The last line is a whole row unless it ends a quoted field that spans lines.
  const last = lastLine(text);
  if (last === undefined) return undefined;
  if (countDelimiters(last, ',') !== -1) rows.push(last);
  for (const delimiter of CSV_DELIMITERS) {
    const columns = countDelimiters(header, delimiter);
    if (columns < 1) continue;
    if (!looksLikeHeader(header.split(delimiter).map((name) => name.trim().replace(/^"|"$/g, '')))) continue;
    if (rows.every((row) => countDelimiters(row, delimiter) === columns)) return { delimiter, headerEnd };
  }
  return undefined;
}

/**
 * Line feeds in `text[start, end)` that end a row: those outside double-quoted fields. Two native
 * searches advance in step (next line feed, next quote), so each character is looked at about once.
 */
function countRowBreaks(text: string, start: number, end: number): number {
  let count = 0;
  let lineFeed = text.indexOf('\n', start);
  let quote = text.indexOf('"', start);
  for (;;) {
    if (lineFeed === -1 || lineFeed >= end) lineFeed = -1;
    if (quote === -1 || quote >= end) quote = -1;
    if (quote !== -1 && (lineFeed === -1 || quote < lineFeed)) {
      // A quoted field (doubled quotes inside it read as closing and reopening): skip its line feeds.
      const closing = text.indexOf('"', quote + 1);
      if (closing === -1 || closing >= end) return count;
      if (lineFeed !== -1 && lineFeed < closing) lineFeed = text.indexOf('\n', closing + 1);
      quote = text.indexOf('"', closing + 1);
    } else if (lineFeed !== -1) {
      count += 1;
      lineFeed = text.indexOf('\n', lineFeed + 1);
    } else {
      return count;
    }
  }
}

function countRows(text: string, start: number, end: number): number {
  const unterminated = end === text.length && end > start && text.charCodeAt(end - 1) !== 10 ? 1 : 0;
  return countRowBreaks(text, start, end) + unterminated;
}

/** True when `text[start, end)` holds an odd number of double quotes (a quoted field is open). */
function opensQuote(text: string, start: number, end: number): boolean {
  let count = 0;
  for (
    let quote = text.indexOf('"', start);
    quote !== -1 && quote < end;
    quote = text.indexOf('"', quote + 1)
  )
    count += 1;
  return count % 2 === 1;
}

/**
 * CSV and TSV: the header row is always kept as the first line, then whole rows from the start
 * and the end (a quoted field spanning lines is never split), and a marker line stating how many
 * rows were omitted. Detected from the header, the first rows and the last row (same number of
 * fields). Returns `undefined` for other texts, or when the header does not fit in the head.
 */
export function planCsvCut(request: CutRequest, cut: CutPoints): CutPlan | undefined {
  const { text, language } = request;
  const detected = detectDelimiter(text);
  if (detected === undefined || detected.headerEnd > cut.headEnd) return undefined;
  const { headerEnd } = detected;
  let headEnd = Math.max(headerEnd, lineStartAt(text, cut.headEnd));
  // Quotes are balanced in whole rows: step back while the head would end inside a quoted field.
  while (headEnd > headerEnd && opensQuote(text, headerEnd, headEnd))
    headEnd = Math.max(headerEnd, lineStartAt(text, headEnd - 1));
  let tailStart = nextLineStart(text, Math.max(cut.tailStart, headEnd));
  // The whole text has balanced quotes, so an odd count in the tail means it starts inside a field.
  while (tailStart < text.length && opensQuote(text, tailStart, text.length))
    tailStart = nextLineStart(text, tailStart + 1);
  if (tailStart <= headEnd) return undefined;
  const omitted = countRows(text, headEnd, tailStart);
  if (omitted === 0) return undefined;
  const total = countRows(text, headerEnd, headEnd) + omitted + countRows(text, tailStart, text.length);
  const stats: OmissionStats = {
    characters: tailStart - headEnd,
    lines: countLines(text, headEnd, tailStart),
    items: { omitted, total, unit: 'rows' },
  };
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const opening = head.endsWith('\n') ? '' : '\n';
  return {
    strategy: 'csv',
    text: `${head}${opening}${omissionMarker(stats, language)}\n${tail}`,
    keptCharacters: head.length + tail.length,
    stats,
  };
}
