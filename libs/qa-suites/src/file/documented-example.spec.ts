import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSuiteFile } from './parse-suite-file';
import { serializeSuite } from './serialize-suite';

const documentation = readFileSync(new URL('../../../../docs/QA-SUITES.md', import.meta.url), 'utf8');

describe('docs/QA-SUITES.md', () => {
  it('shows a full example that reads as a valid suite with every assertion kind', () => {
    const example = /```yaml\n([\s\S]*?)```/.exec(documentation)?.[1];
    expect(example).toBeDefined();
    const parsed = parseSuiteFile(example!, 'yaml');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const kinds = new Set(
      parsed.definition.cases.flatMap((testCase) => testCase.assertions.map((assertion) => assertion.kind)),
    );
    expect([...kinds].sort()).toEqual([
      'cost',
      'equals',
      'javascript',
      'latency',
      'length',
      'matches',
      'one-of',
      'range',
    ]);
    expect(parseSuiteFile(serializeSuite(parsed.definition, 'json'), 'json')).toEqual(parsed);
  });
});
