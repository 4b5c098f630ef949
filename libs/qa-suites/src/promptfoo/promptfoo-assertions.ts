import type { SuiteAssertion } from '@agentdesk/api-contract';
import { isRecord, type UnsupportedParts } from './unsupported-parts';

/** What one promptfoo test's assertions become: suite assertions, and the schema `is-json` named. */
export interface ImportedAssertions {
  assertions: SuiteAssertion[];
  schema: Record<string, unknown> | undefined;
}

const WHY_TEXT_ASSERTIONS =
  'works on the raw text; AgentDesk asserts on the parsed JSON (use equals, matches or javascript on a pointer)';
const WHY_GRADED = 'needs a grading model or embeddings; AgentDesk assertions are deterministic';

/** promptfoo assertion types that cannot carry over, with the reason shown to the importer. */
const UNSUPPORTED_TYPES: Record<string, string> = {
  contains: WHY_TEXT_ASSERTIONS,
  icontains: WHY_TEXT_ASSERTIONS,
  'contains-all': WHY_TEXT_ASSERTIONS,
  'contains-any': WHY_TEXT_ASSERTIONS,
  'icontains-all': WHY_TEXT_ASSERTIONS,
  'icontains-any': WHY_TEXT_ASSERTIONS,
  'starts-with': WHY_TEXT_ASSERTIONS,
  regex: WHY_TEXT_ASSERTIONS,
  levenshtein: WHY_TEXT_ASSERTIONS,
  'llm-rubric': WHY_GRADED,
  'model-graded-closedqa': WHY_GRADED,
  'model-graded-factuality': WHY_GRADED,
  factuality: WHY_GRADED,
  'answer-relevance': WHY_GRADED,
  similar: WHY_GRADED,
  'g-eval': WHY_GRADED,
  python: 'Python assertions cannot run; rewrite as javascript',
  webhook: 'webhooks are not called; rewrite as javascript',
  'assert-set': 'assertion sets (weights, thresholds) are not supported; list the assertions',
};

/** A promptfoo `equals` value: an object, or text that is JSON, compares as JSON. */
function equalsValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * A promptfoo JavaScript assertion as the body AgentDesk's runner calls with the parsed output.
 * promptfoo hands JSON-mode answers over as text, so code that parses `output` gets the text back;
 * a one-line value is an expression; `{ pass, reason }` becomes `{ pass, message }`; a number is a
 * score that passes above `threshold` (or above 0 without one).
 */
export function promptfooJavaScript(
  code: string,
  vars: Record<string, unknown>,
  threshold: number | undefined,
): string {
  const body = code.includes('\n') || /^\s*return\b/.test(code) ? code : `return (${code});`;
  const outputExpression = /JSON\.parse\(\s*output\b/.test(code) ? 'JSON.stringify(output)' : 'output';
  const scorePasses = threshold === undefined ? 'result > 0' : `result >= ${JSON.stringify(threshold)}`;
  return [
    '// Imported from promptfoo: the original check, called as promptfoo calls it.',
    'const promptfooCheck = function (output, context) {',
    body,
    '};',
    `const result = promptfooCheck(${outputExpression}, { vars: ${JSON.stringify(vars)} });`,
    `if (typeof result === 'number') return { pass: ${scorePasses}, message: 'score ' + result };`,
    "if (result !== null && typeof result === 'object' && typeof result.pass === 'boolean')",
    "  return { pass: result.pass, message: typeof result.reason === 'string' ? result.reason : null };",
    'return result;',
  ].join('\n');
}

const KEPT_KEYS = new Set(['type', 'value', 'threshold']);

/** promptfoo `assert` items → suite assertions; `is-json` / `contains-json` with a schema → the case's schema. */
export function importAssertions(
  items: unknown,
  path: string,
  vars: Record<string, unknown>,
  unsupported: UnsupportedParts,
): ImportedAssertions {
  const result: ImportedAssertions = { assertions: [], schema: undefined };
  if (items === undefined) return result;
  if (!Array.isArray(items)) {
    unsupported.add(path, 'assert is not a list');
    return result;
  }
  items.forEach((item, index) => {
    const itemPath = `${path}[${index}]`;
    if (!isRecord(item) || typeof item['type'] !== 'string') {
      unsupported.add(itemPath, 'an assertion without a "type"');
      return;
    }
    const type = item['type'];
    const value = item['value'];
    const threshold = typeof item['threshold'] === 'number' ? item['threshold'] : undefined;
    for (const key of Object.keys(item)) {
      if (!KEPT_KEYS.has(key)) unsupported.add(`${itemPath}.${key}`, `"${key}" is not carried over`);
    }
    if (type.startsWith('not-')) {
      unsupported.add(itemPath, `negated assertions ("${type}") are not supported`);
      return;
    }
    switch (type) {
      case 'is-json':
      case 'contains-json':
        if (isRecord(value)) result.schema = value;
        else if (value !== undefined)
          unsupported.add(
            `${itemPath}.value`,
            'a schema that is not inline (a file reference): paste the schema',
          );
        return;
      case 'equals':
        result.assertions.push({ kind: 'equals', pointer: '', value: equalsValue(value) });
        return;
      case 'javascript':
        if (typeof value !== 'string' || value.startsWith('file://')) {
          unsupported.add(itemPath, 'JavaScript from a file: paste the code');
          return;
        }
        result.assertions.push({ kind: 'javascript', code: promptfooJavaScript(value, vars, threshold) });
        return;
      case 'latency':
        if (threshold === undefined || threshold <= 0)
          unsupported.add(itemPath, 'a latency assertion needs a positive "threshold" (ms)');
        else result.assertions.push({ kind: 'latency', maxMs: Math.ceil(threshold) });
        return;
      case 'cost':
        if (threshold === undefined || threshold <= 0)
          unsupported.add(itemPath, 'a cost assertion needs a positive "threshold" (USD)');
        else result.assertions.push({ kind: 'cost', maxUsd: threshold });
        return;
      default:
        unsupported.add(
          itemPath,
          `"${type}" assertions are not supported: ${UNSUPPORTED_TYPES[type] ?? 'no AgentDesk equivalent'}`,
        );
    }
  });
  return result;
}
