import {
  findTooDeep,
  MAX_NESTING_DEPTH,
  tooDeepProblem,
  tooDeepWhere,
  type TooDeep,
} from '@agentdesk/api-contract';
import { CST, LineCounter, parseDocument, Parser } from 'yaml';
import { formatIssuePath, type FileIssue } from './file-issue';
import { SourceLines } from './source-lines';

/** YAML anchors can multiply a small file into a huge value; a suite file never needs many. */
const MAX_ALIAS_COUNT = 100;

export type ReadFile =
  { ok: true; value: unknown; lines: SourceLines | undefined } | { ok: false; issues: FileIssue[] };

/** Reads YAML text into a plain value, or the syntax errors with their lines. */
export function readYaml(text: string): ReadFile {
  // Before composing the document, which recurses into it.
  const tooDeepToken = findTooDeepInYaml(text);
  if (tooDeepToken !== undefined) {
    return { ok: false, issues: [tooDeepIssue(tooDeepToken, lineAt(text, tooDeepToken.offset))] };
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      issues: document.errors.map((error) => ({
        path: '',
        // The pretty message repeats the position and quotes the source; the line is given apart.
        message:
          error.code === 'MULTIPLE_DOCS'
            ? 'a suite file holds one YAML document (remove the "---" separator)'
            : (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, ''),
        ...(error.linePos ? { line: error.linePos[0].line } : {}),
      })),
    };
  }
  try {
    const value: unknown = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    const lines = SourceLines.fromDocument(document, lineCounter);
    // Aliases may stack anchored collections deeper than the text shows.
    const tooDeep = findTooDeep(value);
    if (tooDeep !== undefined)
      return { ok: false, issues: [tooDeepIssue(tooDeep, lines.lineOf(tooDeep.path))] };
    return { ok: true, value, lines };
  } catch (error) {
    return {
      ok: false,
      issues: [{ path: '', message: error instanceof Error ? error.message : String(error) }],
    };
  }
}

/** The issue of a value nested too deep, with its line when known. */
export function tooDeepIssue(tooDeep: TooDeep, line: number | undefined): FileIssue {
  // The path cut after its first segments: a hundred levels of `[0]` say no more than eight do.
  const path = tooDeepWhere(tooDeep, formatIssuePath);
  return { path, message: tooDeepProblem(tooDeep), ...(line === undefined ? {} : { line }) };
}

interface TokenVisit {
  readonly token: CST.Token | undefined;
  readonly depth: number;
  readonly path: readonly (string | number)[];
}

/**
 * The first YAML collection nested more than `MAX_NESTING_DEPTH` levels, with its offset in the
 * text, read from the parser's concrete syntax tree: the parser keeps a stack of its own, while
 * composing the document recurses (at 1,000 levels in a test worker's stack it reported "Maximum call
 * stack size exceeded" as a syntax error). Levels count as `findTooDeep` counts them.
 */
function findTooDeepInYaml(text: string): (TooDeep & { offset: number }) | undefined {
  const pending: TokenVisit[] = [];
  for (const token of new Parser().parse(text))
    if (token.type === 'document') pending.push({ token: token.value, depth: 1, path: [] });
  while (pending.length > 0) {
    const { token, depth, path } = pending.pop()!;
    if (token === undefined || !isCollectionToken(token)) continue;
    if (depth > MAX_NESTING_DEPTH) return { path, limit: MAX_NESTING_DEPTH, offset: token.offset };
    const isSequence =
      token.type === 'block-seq' || (token.type === 'flow-collection' && token.start.source === '[');
    token.items.forEach((item, index) => {
      const key = isSequence ? index : (keyText(item.key) ?? index);
      pending.push({ token: item.value, depth: depth + 1, path: [...path, key] });
      pending.push({ token: item.key ?? undefined, depth: depth + 1, path: [...path, key] });
    });
  }
  return undefined;
}

function isCollectionToken(token: CST.Token): token is CST.BlockMap | CST.BlockSequence | CST.FlowCollection {
  return token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection';
}

function keyText(token: CST.Token | null | undefined): string | undefined {
  if (token === null || token === undefined) return undefined;
  const scalar = CST.isScalar(token) ? CST.resolveAsScalar(token) : null;
  return scalar?.value;
}

/** The 1-based line of an offset in the text. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1))
    line += 1;
  return line;
}
