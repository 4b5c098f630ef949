import { splitsSurrogatePair } from '../tokens/text-chunks';
import type { CutPlan, CutPoints, CutRequest } from './cut-plan';
import {
  type ArrayLayout,
  CLOSE_BRACE,
  closingQuote,
  firstNonWhitespace,
  lastNonWhitespace,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE_CODE,
  scanArray,
  skipContainer,
  skipScalar,
} from './json-scan';
import { renderArrayCut } from './truncate-json';
import { type NoticeLanguage, omissionMarker } from './truncation-notice';

/** Objects nested deeper than this are not followed (the text is cut as text instead). */
const MAX_OBJECT_DEPTH = 64;
/** Members reaching into the omitted middle are kept with their keys; past this many the cut gives up. */
const MAX_MIDDLE_MEMBERS = 256;
/** A value wholly inside the omitted middle is kept as is up to this many characters. */
const SMALL_VALUE_CHARACTERS = 160;
/** Keys, small values and markers may add this many characters beyond the kept head and tail. */
const STRUCTURE_ALLOWANCE_CHARACTERS = 4096;

type ValueShape =
  | { kind: 'object'; frame: ObjectFrame | undefined }
  | { kind: 'array'; layout: ArrayLayout }
  | { kind: 'string' }
  | { kind: 'scalar' };

/** A member that reaches into the omitted middle: its key is kept, its value is cut. */
interface MiddleMember {
  keyStart: number;
  valueStart: number;
  valueEnd: number;
  shape: ValueShape;
}

/** An object whose members reaching into the middle are known (the others are kept verbatim). */
interface ObjectFrame {
  start: number;
  end: number;
  members: MiddleMember[];
}

interface ParsedValue {
  end: number;
  shape: ValueShape;
}

/**
 * One pass over a JSON object: objects on the way to the cut points are followed member by
 * member, arrays are scanned once for their item boundaries around the cuts (as the top-level
 * array cut does), and everything else is skipped. Values that start inside the omitted middle are
 * only skipped; the one that reaches past the tail cut is followed afterwards.
 */
class ObjectCutScanner {
  private middleMembers = 0;

  constructor(
    private readonly text: string,
    private readonly headCut: number,
    private readonly tailCut: number,
  ) {}

  parseObject(open: number, depth: number): ObjectFrame | undefined {
    const { text } = this;
    if (depth > MAX_OBJECT_DEPTH) return undefined;
    const members: MiddleMember[] = [];
    let index = firstNonWhitespace(text, open + 1);
    if (index !== -1 && text.charCodeAt(index) === CLOSE_BRACE)
      return { start: open, end: index + 1, members };
    for (;;) {
      if (index === -1 || text.charCodeAt(index) !== QUOTE_CODE) return undefined;
      const keyStart = index;
      const keyEnd = closingQuote(text, keyStart, text.length);
      if (keyEnd === -1) return undefined;
      const colon = firstNonWhitespace(text, keyEnd + 1);
      if (colon === -1 || text.charCodeAt(colon) !== 58) return undefined;
      const valueStart = firstNonWhitespace(text, colon + 1);
      if (valueStart === -1) return undefined;
      const value = this.parseValue(valueStart, depth);
      if (value === undefined) return undefined;
      if (value.end > this.headCut && keyStart < this.tailCut) {
        this.middleMembers += 1;
        if (this.middleMembers > MAX_MIDDLE_MEMBERS) return undefined;
        members.push({ keyStart, valueStart, valueEnd: value.end, shape: value.shape });
      }
      index = firstNonWhitespace(text, value.end);
      if (index === -1) return undefined;
      const code = text.charCodeAt(index);
      if (code === CLOSE_BRACE) return { start: open, end: index + 1, members };
      if (code !== 44) return undefined;
      index = firstNonWhitespace(text, index + 1);
    }
  }

  private parseValue(start: number, depth: number): ParsedValue | undefined {
    const { text } = this;
    const code = text.charCodeAt(start);
    if (code === QUOTE_CODE) {
      const end = closingQuote(text, start, text.length);
      return end === -1 ? undefined : { end: end + 1, shape: { kind: 'string' } };
    }
    if (code === OPEN_BRACKET) {
      const layout = scanArray(text, start, text.length, this.headCut, this.tailCut);
      return layout === undefined ? undefined : { end: layout.close + 1, shape: { kind: 'array', layout } };
    }
    if (code === OPEN_BRACE) {
      if (start < this.headCut) {
        const frame = this.parseObject(start, depth + 1);
        return frame === undefined ? undefined : { end: frame.end, shape: { kind: 'object', frame } };
      }
      const end = skipContainer(text, start, text.length);
      if (end === -1 || text.charCodeAt(end - 1) !== CLOSE_BRACE) return undefined;
      if (start >= this.tailCut || end <= this.tailCut)
        return { end, shape: { kind: 'object', frame: undefined } };
      // Starts in the middle and reaches into the tail: its structure is needed after all.
      const frame = this.parseObject(start, depth + 1);
      return frame === undefined ? undefined : { end: frame.end, shape: { kind: 'object', frame } };
    }
    const end = skipScalar(text, start, text.length);
    return end === start ? undefined : { end, shape: { kind: 'scalar' } };
  }
}

/** The escape sequence (`\n`, `\"`, `\u00e9`…) that `position` falls strictly inside, if any. */
function escapeAround(
  text: string,
  contentStart: number,
  position: number,
): { start: number; end: number } | undefined {
  for (let index = position - 1; index >= Math.max(contentStart, position - 5); index--) {
    if (text.charCodeAt(index) !== 92) continue;
    let run = 1;
    while (index - run >= contentStart && text.charCodeAt(index - run) === 92) run += 1;
    // An even run ends with an escaped backslash: the escape started one character earlier.
    const start = run % 2 === 1 ? index : index - 1;
    const end = start + (text.charCodeAt(start + 1) === 117 ? 6 : 2);
    return start < position && position < end ? { start, end } : undefined;
  }
  return undefined;
}

/** Renders the cut parts and adds up what was left out. */
class ObjectCutRenderer {
  omittedCharacters = 0;
  omittedItems = 0;
  totalItems = 0;
  arraysCut = 0;

  constructor(
    private readonly text: string,
    private readonly headCut: number,
    private readonly tailCut: number,
    private readonly language: NoticeLanguage,
  ) {}

  object(frame: ObjectFrame): string {
    const { text } = this;
    const [first] = frame.members;
    if (first === undefined) return text.slice(frame.start, frame.end);
    let output = text.slice(frame.start, first.keyStart);
    frame.members.forEach((member, index) => {
      const next = frame.members[index + 1];
      output +=
        text.slice(member.keyStart, member.valueStart) +
        this.value(member) +
        text.slice(member.valueEnd, next === undefined ? frame.end : next.keyStart);
    });
    return output;
  }

  private value(member: MiddleMember): string {
    const { text } = this;
    const { valueStart: start, valueEnd: end, shape } = member;
    const insideMiddle = start >= this.headCut && end <= this.tailCut;
    if (insideMiddle && end - start <= SMALL_VALUE_CHARACTERS) return text.slice(start, end);
    switch (shape.kind) {
      case 'array': {
        const cut = renderArrayCut(text, start, shape.layout, this.language);
        this.omittedCharacters += cut.omittedCharacters;
        this.omittedItems += cut.omittedItems;
        this.totalItems += cut.totalItems;
        if (cut.omittedItems > 0) this.arraysCut += 1;
        return cut.text;
      }
      case 'object':
        if (shape.frame !== undefined) return this.object(shape.frame);
        return this.marker(end - start);
      case 'string':
        return insideMiddle ? this.marker(end - start) : this.string(start, end);
      case 'scalar':
        return text.slice(start, end);
    }
  }

  /** A whole value replaced by a marker string. */
  private marker(characters: number): string {
    this.omittedCharacters += characters;
    return JSON.stringify(omissionMarker({ characters }, this.language));
  }

  /** A string that crosses a cut point keeps its start and end around a marker, as a valid string. */
  private string(start: number, end: number): string {
    const { text } = this;
    const contentStart = start + 1;
    const contentEnd = end - 1;
    let headEnd = Math.min(Math.max(this.headCut, contentStart), contentEnd);
    headEnd = escapeAround(text, contentStart, headEnd)?.start ?? headEnd;
    if (splitsSurrogatePair(text, headEnd)) headEnd -= 1;
    let tailStart = Math.min(Math.max(this.tailCut, headEnd), contentEnd);
    tailStart = escapeAround(text, contentStart, tailStart)?.end ?? tailStart;
    if (splitsSurrogatePair(text, tailStart)) tailStart += 1;
    if (tailStart <= headEnd) return text.slice(start, end);
    const characters = tailStart - headEnd;
    this.omittedCharacters += characters;
    const marker = omissionMarker({ characters }, this.language);
    return `"${text.slice(contentStart, headEnd)} ${marker} ${text.slice(tailStart, contentEnd)}"`;
  }
}

/**
 * Cuts a JSON object (a tool's envelope such as `{"rows": […], "total": 10000}` or
 * `{"data": {"items": […]}}`) by structure: every key on the way to the cut points is kept, the
 * arrays that reach into the omitted middle lose their middle items (marker string element, first
 * and last items kept), a long string crossing a cut keeps its ends around a marker, and a large
 * value wholly inside the middle becomes a marker string. The result is still valid JSON with the
 * same top-level keys. Returns `undefined` when the text is not one JSON object, when nothing could
 * be kept whole, or when the kept structure would be too large, and the caller cuts it another way.
 */
export function planJsonObjectCut(request: CutRequest, cut: CutPoints): CutPlan | undefined {
  const { text, language } = request;
  const open = firstNonWhitespace(text);
  const close = lastNonWhitespace(text);
  if (open === -1 || text.charCodeAt(open) !== OPEN_BRACE || text.charCodeAt(close) !== CLOSE_BRACE)
    return undefined;
  const frame = new ObjectCutScanner(text, cut.headEnd, cut.tailStart).parseObject(open, 0);
  if (frame === undefined || frame.end !== close + 1) return undefined;
  const renderer = new ObjectCutRenderer(text, cut.headEnd, cut.tailStart, language);
  const body = renderer.object(frame);
  if (renderer.omittedCharacters === 0) return undefined;
  const output = text.slice(0, open) + body + text.slice(close + 1);
  const keptBudget = cut.headEnd + (text.length - cut.tailStart);
  if (output.length > keptBudget + STRUCTURE_ALLOWANCE_CHARACTERS) return undefined;
  return {
    strategy: 'json-object',
    text: output,
    keptCharacters: text.length - renderer.omittedCharacters,
    stats: {
      characters: renderer.omittedCharacters,
      ...(renderer.arraysCut > 0 && {
        items: { omitted: renderer.omittedItems, total: renderer.totalItems },
      }),
    },
  };
}
