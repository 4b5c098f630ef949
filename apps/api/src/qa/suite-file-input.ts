import type { SuiteDefinition, UnsupportedPartJson } from '@agentdesk/api-contract';
import { importPromptfoo, parseSuiteFile, type FileIssue } from '@agentdesk/qa-suites';
import { findUnstorableText } from '@agentdesk/storage';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { definitionProblems, type DefinitionProblem } from './definition-problems';

/** Problems listed in one 400; the count says how many more there were. */
const MAX_LISTED_ISSUES = 20;

/** Each issue as `path (line N): message`, the way an editor would point at it. */
function describeFileIssues(location: string, issues: readonly FileIssue[]): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const where = issue.path === '' ? 'the file' : issue.path;
    return `${where}${issue.line === undefined ? '' : ` (line ${issue.line})`}: ${issue.message}`;
  });
  const more = issues.length > MAX_LISTED_ISSUES ? ` (and ${issues.length - MAX_LISTED_ISSUES} more)` : '';
  const count = issues.length === 1 ? 'a problem' : `${issues.length} problems`;
  return `${location}: the suite file has ${count}: ${listed.join('; ')}${more}`;
}

/** A 400 for a definition sent as JSON in a body: each problem at `body.definition.<path>`. */
export function definitionRefused(problems: readonly DefinitionProblem[]): ApiError {
  return new ApiError(
    ApiErrorCode.ValidationFailed,
    problems
      .slice(0, MAX_LISTED_ISSUES)
      .map((problem) => `body.definition.${problem.path}: ${problem.message}`)
      .join('; '),
  );
}

/** A definition from a body, checked beyond its shape (schemas compile, patterns are regexes). */
export function checkedDefinition(definition: SuiteDefinition): SuiteDefinition {
  const problems = definitionProblems(definition);
  if (problems.length > 0) throw definitionRefused(problems);
  return definition;
}

/**
 * A suite file's text as a definition: parsed in its format (promptfoo's listing what it could not
 * carry over), then checked like a definition sent as JSON. Anything wrong is one 400 listing every
 * problem with its path and line.
 */
export function definitionFromFile(
  format: 'yaml' | 'json' | 'promptfoo',
  text: string,
): { definition: SuiteDefinition; unsupported: UnsupportedPartJson[] } {
  const parsed = parseFile(format, text);
  if (!parsed.ok)
    throw new ApiError(ApiErrorCode.ValidationFailed, describeFileIssues('body.text', parsed.issues));
  const issues: FileIssue[] = definitionProblems(parsed.definition);
  // Escapes in the file ("\0", "\ud800") can make text neither database stores unchanged.
  const unstorable = findUnstorableText(parsed.definition);
  if (unstorable !== undefined)
    issues.push({
      path: unstorable.path
        .map((segment, index) =>
          typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${segment}`,
        )
        .join(''),
      message:
        unstorable.key === undefined
          ? unstorable.problem
          : `the key ${JSON.stringify(unstorable.key)} ${unstorable.problem}`,
    });
  if (issues.length > 0)
    throw new ApiError(ApiErrorCode.ValidationFailed, describeFileIssues('body.text', issues));
  return { definition: parsed.definition, unsupported: parsed.unsupported };
}

type ParsedFile =
  | { ok: true; definition: SuiteDefinition; unsupported: UnsupportedPartJson[] }
  | { ok: false; issues: FileIssue[] };

function parseFile(format: 'yaml' | 'json' | 'promptfoo', text: string): ParsedFile {
  if (format === 'promptfoo') return importPromptfoo(text);
  const parsed = parseSuiteFile(text, format);
  return parsed.ok ? { ok: true, definition: parsed.definition, unsupported: [] } : parsed;
}
