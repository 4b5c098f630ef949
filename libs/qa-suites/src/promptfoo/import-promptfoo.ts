import {
  findTooDeep,
  suiteDefinitionSchema,
  type SuiteCase,
  type SuiteDefinition,
  type SuiteTarget,
  type UnsupportedPartJson,
} from '@agentdesk/api-contract';
import type { FileIssue } from '../file/file-issue';
import { readYaml, tooDeepIssue } from '../file/read-yaml';
import { issuesFromZod } from '../file/zod-issues';
import { importAssertions } from './promptfoo-assertions';
import { importPrompts, fillTemplate, type ImportedPrompt } from './promptfoo-prompts';
import { importProviders } from './promptfoo-providers';
import { isRecord, UnsupportedParts } from './unsupported-parts';

export type ImportedPromptfoo =
  | { ok: true; definition: SuiteDefinition; unsupported: UnsupportedPartJson[] }
  | { ok: false; issues: FileIssue[] };

/** Used when neither an `is-json` assertion nor a provider's response_format names a schema. */
const ANY_OBJECT_SCHEMA = { type: 'object' };
const DEFAULT_NAME = 'Imported from promptfoo';
const MAPPED_TOP_LEVEL = new Set(['description', 'prompts', 'providers', 'tests', 'defaultTest']);
const MAPPED_TEST_KEYS = new Set(['description', 'vars', 'assert']);

/** A case id from a test's description ("Total is right!" → "total-is-right"), else its position. */
function caseIdFrom(description: unknown, fallback: string): string {
  const slug =
    typeof description === 'string'
      ? description
          .toLowerCase()
          .replace(/[^a-z0-9._-]+/g, '-')
          .replace(/^[-._]+|[-._]+$/g, '')
          .slice(0, 60)
      : '';
  return slug === '' ? fallback : slug;
}

function unique(candidate: string, taken: Set<string>): string {
  let name = candidate;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${candidate}-${suffix}`;
  taken.add(name);
  return name;
}

/** Two providers of one model need labels to be two targets. */
function labelDuplicates(targets: SuiteTarget[]): SuiteTarget[] {
  const taken = new Set<string>();
  return targets.map((target) => {
    const label = unique(target.label ?? target.model, taken);
    return label === (target.label ?? target.model) ? target : { ...target, label };
  });
}

interface TestEntry {
  path: string;
  description: unknown;
  vars: Record<string, unknown>;
  /** defaultTest's assertions, then the test's own, each with its path in the file. */
  asserts: { items: unknown; path: string }[];
}

function testEntries(config: Record<string, unknown>, unsupported: UnsupportedParts): TestEntry[] {
  const defaults = isRecord(config['defaultTest']) ? config['defaultTest'] : {};
  const defaultVars = isRecord(defaults['vars']) ? defaults['vars'] : {};
  for (const key of Object.keys(defaults)) {
    if (key !== 'vars' && key !== 'assert')
      unsupported.add(`defaultTest.${key}`, `"${key}" is not carried over`);
  }
  const defaultAssert =
    defaults['assert'] === undefined ? [] : [{ items: defaults['assert'], path: 'defaultTest.assert' }];
  const tests = config['tests'];
  if (tests === undefined)
    return [{ path: 'defaultTest', description: undefined, vars: defaultVars, asserts: defaultAssert }];
  if (!Array.isArray(tests)) {
    unsupported.add('tests', 'tests read from a file or generator: list them inline');
    return [];
  }
  return tests.flatMap((test, index): TestEntry[] => {
    const path = `tests[${index}]`;
    if (!isRecord(test)) {
      unsupported.add(path, 'a test read from a file: list it inline');
      return [];
    }
    for (const key of Object.keys(test))
      if (!MAPPED_TEST_KEYS.has(key)) unsupported.add(`${path}.${key}`, `"${key}" is not carried over`);
    const vars = { ...defaultVars, ...(isRecord(test['vars']) ? test['vars'] : {}) };
    for (const [name, value] of Object.entries(vars)) {
      if (Array.isArray(value))
        unsupported.add(
          `${path}.vars.${name}`,
          'a list of values (one test per value in promptfoo) is used as one JSON value',
        );
      if (typeof value === 'string' && value.startsWith('file://'))
        unsupported.add(`${path}.vars.${name}`, 'a value read from a file: paste it');
    }
    const asserts =
      test['assert'] === undefined
        ? defaultAssert
        : [...defaultAssert, { items: test['assert'], path: `${path}.assert` }];
    return [{ path, description: test['description'], vars, asserts }];
  });
}

function caseOf(
  prompt: ImportedPrompt,
  promptIndex: number,
  test: TestEntry,
  id: string,
  schema: Record<string, unknown>,
  unsupported: UnsupportedParts,
): SuiteCase {
  const templatePath = `prompts[${promptIndex}]`;
  const imported = test.asserts.map(({ items, path }) =>
    importAssertions(items, path, test.vars, unsupported),
  );
  // The test's own schema wins over defaultTest's.
  const caseSchema = imported.reduce<Record<string, unknown> | undefined>(
    (found, part) => part.schema ?? found,
    undefined,
  );
  const description = typeof test.description === 'string' ? test.description : undefined;
  const base = {
    id,
    ...(description ? { description } : {}),
    schema: caseSchema ?? schema,
    assertions: imported.flatMap((part) => part.assertions),
  };
  if (prompt.messages) {
    return {
      ...base,
      messages: prompt.messages.map((message) => ({
        ...message,
        content: fillTemplate(message.content, test.vars, templatePath, unsupported),
      })),
    };
  }
  return { ...base, prompt: fillTemplate(prompt.text, test.vars, templatePath, unsupported) };
}

/**
 * Imports a promptfoo config (YAML or JSON): providers → targets, each test × prompt → a case
 * (`{{var}}` filled in from the test's vars), `is-json` / `contains-json` schemas → the case's
 * schema, and the assertions AgentDesk has (equals, javascript, latency, cost). Everything else is
 * listed in `unsupported` with its path in the file and why (docs/QA-SUITES.md has the table).
 */
export function importPromptfoo(text: string): ImportedPromptfoo {
  if (text.trim() === '') return { ok: false, issues: [{ path: '', message: 'the file is empty' }] };
  const read = readYaml(text);
  if (!read.ok) return read;
  if (!isRecord(read.value))
    return {
      ok: false,
      issues: [{ path: '', message: 'a promptfoo config is a mapping (prompts, providers, tests)' }],
    };
  const config = read.value;
  const unsupported = new UnsupportedParts();
  for (const key of Object.keys(config))
    if (!MAPPED_TOP_LEVEL.has(key)) unsupported.add(key, `"${key}" is not carried over`);

  const providers = importProviders(config['providers'], unsupported);
  const prompts = importPrompts(config['prompts'], unsupported);
  const issues: FileIssue[] = [];
  if (providers.targets.length === 0)
    issues.push({ path: 'providers', message: 'no provider could be imported as a target' });
  if (prompts.length === 0) issues.push({ path: 'prompts', message: 'no inline prompt could be imported' });
  if (issues.length > 0) return { ok: false, issues };

  const schema = providers.schema ?? ANY_OBJECT_SCHEMA;
  const tests = testEntries(config, unsupported);
  const ids = new Set<string>();
  const cases = tests.flatMap((test, testIndex) =>
    prompts.map((prompt, promptIndex) => {
      const base = caseIdFrom(test.description, `test-${testIndex + 1}`);
      const id = unique(
        prompts.length > 1 ? `${base}-${caseIdFrom(prompt.label, `prompt-${promptIndex + 1}`)}` : base,
        ids,
      );
      return caseOf(prompt, promptIndex, test, id, schema, unsupported);
    }),
  );
  if (cases.some((testCase) => testCase.schema === ANY_OBJECT_SCHEMA)) {
    unsupported.add(
      'tests',
      'no is-json schema (nor a provider response_format): those cases ask for any JSON object',
    );
  }
  const description = typeof config['description'] === 'string' ? config['description'].trim() : '';
  const definition = {
    name: description === '' ? DEFAULT_NAME : description.slice(0, 200),
    ...(description.length > 200 ? { description: description.slice(0, 5_000) } : {}),
    targets: labelDuplicates(providers.targets),
    cases,
  };
  // Text values that are JSON (an `equals` written as a string) become values of their own here.
  const tooDeep = findTooDeep(definition);
  if (tooDeep !== undefined) {
    const issue = tooDeepIssue(tooDeep, undefined);
    return { ok: false, issues: [{ ...issue, path: `(imported suite) ${issue.path}` }] };
  }
  const parsed = suiteDefinitionSchema.safeParse(definition);
  if (!parsed.success)
    return {
      ok: false,
      issues: issuesFromZod(parsed.error.issues, undefined).map((issue) => ({
        ...issue,
        path: `(imported suite) ${issue.path}`,
      })),
    };
  return { ok: true, definition: parsed.data, unsupported: unsupported.parts };
}
