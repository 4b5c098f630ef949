import { findTooDeep, suiteDefinitionSchema, type SuiteDefinition } from '@agentdesk/api-contract';
import type { FileIssue, SuiteFormat } from './file-issue';
import { readYaml, tooDeepIssue, type ReadFile } from './read-yaml';
import { SourceLines } from './source-lines';
import { issuesFromZod } from './zod-issues';

export type ParsedSuite = { ok: true; definition: SuiteDefinition } | { ok: false; issues: FileIssue[] };

function lineAtOffset(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index += 1) if (text[index] === '\n') line += 1;
  return line;
}

function readJson(text: string): ReadFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8 names the offset ("… in JSON at position 42"); people want the line.
    const position = /at position (\d+)/.exec(message);
    return {
      ok: false,
      issues: [{ path: '', message, ...(position ? { line: lineAtOffset(text, Number(position[1])) } : {}) }],
    };
  }
  // JSON.parse does not recurse; reading the lines (as YAML), the schema check and storage do.
  const tooDeep = findTooDeep(value);
  if (tooDeep !== undefined) return { ok: false, issues: [tooDeepIssue(tooDeep, undefined)] };
  return { ok: true, value, lines: SourceLines.of(text) };
}

/**
 * Reads a suite file (docs/QA-SUITES.md): YAML or JSON text → a validated definition with its
 * defaults filled in, or every problem found, each with its path and, where it can be placed, its line.
 */
export function parseSuiteFile(text: string, format: SuiteFormat): ParsedSuite {
  if (text.trim() === '') return { ok: false, issues: [{ path: '', message: 'the file is empty' }] };
  const read = format === 'yaml' ? readYaml(text) : readJson(text);
  if (!read.ok) return read;
  const parsed = suiteDefinitionSchema.safeParse(read.value);
  if (!parsed.success) return { ok: false, issues: issuesFromZod(parsed.error.issues, read.lines) };
  return { ok: true, definition: parsed.data };
}
