import { suiteDefinitionSchema, type SuiteDefinition } from '@agentdesk/api-contract';
import { LineCounter, isNode, parseDocument, stringify, type Document } from 'yaml';

/** The two formats a suite is written in here (promptfoo files go through the import). */
export const suiteTextFormats = ['yaml', 'json'] as const;
export type SuiteTextFormat = (typeof suiteTextFormats)[number];

/** One problem of a suite's text: where (a path like `cases[3].assertions[0].pointer`, and the line), and what. */
export interface SuiteTextIssue {
  path: string;
  line: number | null;
  message: string;
}

export type SuiteTextReading =
  { ok: true; definition: SuiteDefinition } | { ok: false; issues: SuiteTextIssue[] };

/** `["cases", 3, "id"]` as `cases[3].id`: the path people read in the editor's messages. */
export function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** The line (1-based) of the node at `path`, or of its nearest ancestor the text has. */
function lineOf(document: Document, lines: LineCounter, path: readonly PropertyKey[]): number | null {
  for (let length = path.length; length >= 0; length -= 1) {
    const node: unknown = document.getIn(path.slice(0, length), true);
    if (isNode(node) && node.range !== undefined && node.range !== null)
      return lines.linePos(node.range[0]).line;
  }
  return null;
}

/**
 * Reads a suite written in the editor: the text parsed as YAML (JSON is YAML too, and its lines
 * count the same way) and checked against the contract's suite format, every problem named by path
 * and line. Runs on the console's server: the browser loads no YAML parser.
 */
export function readSuiteText(text: string, format: SuiteTextFormat): SuiteTextReading {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0)
    return {
      ok: false,
      issues: document.errors.map((error) => ({
        path: '',
        line: error.linePos?.[0].line ?? null,
        message: `not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0] ?? error.code}`,
      })),
    };
  if (format === 'json') {
    try {
      JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        issues: [{ path: '', line: null, message: `not valid JSON: ${(error as Error).message}` }],
      };
    }
  }
  const parsed = suiteDefinitionSchema.safeParse(document.toJS());
  if (parsed.success) return { ok: true, definition: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({
      path: pathText(issue.path),
      line: lineOf(document, lines, issue.path),
      message: issue.message,
    })),
  };
}

/** A definition as the editor's YAML text (which `readSuiteText` reads back as the same definition). */
export function suiteYamlText(definition: SuiteDefinition): string {
  return stringify(definition, { lineWidth: 0 });
}
