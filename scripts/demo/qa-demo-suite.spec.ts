import { readFileSync } from 'node:fs';
import { suiteAssertionKinds } from '@agentdesk/api-contract';
import { parseSuiteFile } from '@agentdesk/qa-suites';
import { describe, expect, it } from 'vitest';
import { DEMO_SUITE_FILE, DEMO_SUITE_NAME } from './seed-demo-suite';

describe('the demo QA suite file', () => {
  const parsed = parseSuiteFile(readFileSync(DEMO_SUITE_FILE, 'utf8'), 'yaml');

  it('is a valid suite file under the name npm start looks for', () => {
    expect(parsed.ok ? [] : parsed.issues).toEqual([]);
    if (!parsed.ok) return;
    expect(parsed.definition.name).toBe(DEMO_SUITE_NAME);
  });

  it('runs on one OpenAI, one Anthropic and one Gemini model, each with its own variation rate', () => {
    if (!parsed.ok) throw new Error('the demo suite must parse');
    const models = parsed.definition.targets.map((target) => target.model);
    expect(models.map((model) => model.split('-')[0])).toEqual(['gpt', 'claude', 'gemini']);
    // scripts/start.ts gives these models their documented rates.
    const start = readFileSync(new URL('../start.ts', import.meta.url), 'utf8');
    for (const model of models) expect(start).toContain(`'${model}'`);
  });

  it('has about twelve cases over the three tasks, using every assertion kind, one of them JavaScript', () => {
    if (!parsed.ok) throw new Error('the demo suite must parse');
    const cases = parsed.definition.cases;
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const task of ['invoice-', 'ticket-', 'review-'])
      expect(cases.filter((testCase) => testCase.id.startsWith(task)).length).toBeGreaterThanOrEqual(3);
    const kinds = new Set(
      cases.flatMap((testCase) => testCase.assertions.map((assertion) => assertion.kind)),
    );
    expect([...kinds].sort()).toEqual(suiteAssertionKinds.filter((kind) => kind !== 'schema').sort());
    expect(
      cases.flatMap((testCase) => testCase.assertions).filter((assertion) => assertion.kind === 'javascript'),
    ).toHaveLength(1);
  });
});
