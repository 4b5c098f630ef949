import { LineCounter, parseDocument } from 'yaml';
import type { FileIssue } from './file-issue';
import { SourceLines } from './source-lines';

/** YAML anchors can multiply a small file into a huge value; a suite file never needs many. */
const MAX_ALIAS_COUNT = 100;

export type ReadFile =
  { ok: true; value: unknown; lines: SourceLines | undefined } | { ok: false; issues: FileIssue[] };

/** Reads YAML text into a plain value, or the syntax errors with their lines. */
export function readYaml(text: string): ReadFile {
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
    return {
      ok: true,
      value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }),
      lines: SourceLines.fromDocument(document, lineCounter),
    };
  } catch (error) {
    return {
      ok: false,
      issues: [{ path: '', message: error instanceof Error ? error.message : String(error) }],
    };
  }
}
