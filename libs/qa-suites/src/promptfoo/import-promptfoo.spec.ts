import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { JAVASCRIPT_ASSERTION_PROGRAM } from '../assertions/javascript-assertion-program';
import { parseSuiteFile } from '../file/parse-suite-file';
import { serializeSuite } from '../file/serialize-suite';
import { importPromptfoo } from './import-promptfoo';

const CONFIG = `description: Invoice extraction
prompts:
  - "Extract the invoice fields from: {{invoice}}"
providers:
  - openai:chat:gpt-4o
  - id: anthropic:messages:claude-sonnet-4
    label: claude
    config:
      temperature: 0
      max_tokens: 512
      top_p: 0.9
  - ollama:llama3
defaultTest:
  assert:
    - type: latency
      threshold: 5000
tests:
  - description: Total is right
    vars:
      invoice: "ACME, total 12.50 EUR"
    assert:
      - type: is-json
        value:
          type: object
          required: [total]
          properties:
            total: { type: number }
      - type: javascript
        value: JSON.parse(output).total === 12.5
      - type: equals
        value: '{"total": 12.5}'
      - type: cost
        threshold: 0.01
      - type: llm-rubric
        value: is polite
      - type: contains
        value: total
        weight: 2
  - vars:
      invoice: "Globex, 99 USD"
    assert:
      - type: not-equals
        value: "{}"
      - type: javascript
        value: file://checks.js
outputPath: results.json
`;

describe('importPromptfoo', () => {
  it('imports providers, tests with their vars, schemas and the assertions AgentDesk has', () => {
    const imported = importPromptfoo(CONFIG);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    const { definition } = imported;
    expect(definition.name).toBe('Invoice extraction');
    expect(definition.targets).toEqual([
      { model: 'gpt-4o', strict: true },
      { model: 'claude-sonnet-4', label: 'claude', strict: true, temperature: 0, maxTokens: 512 },
    ]);
    expect(definition.cases.map((testCase) => testCase.id)).toEqual(['total-is-right', 'test-2']);
    const [first, second] = definition.cases;
    expect(first!.prompt).toBe('Extract the invoice fields from: ACME, total 12.50 EUR');
    expect(first!.description).toBe('Total is right');
    expect(first!.schema).toEqual({
      type: 'object',
      required: ['total'],
      properties: { total: { type: 'number' } },
    });
    expect(first!.assertions.map((assertion) => assertion.kind)).toEqual([
      'latency',
      'javascript',
      'equals',
      'cost',
    ]);
    expect(first!.assertions[0]).toEqual({ kind: 'latency', maxMs: 5000 });
    expect(first!.assertions[2]).toEqual({ kind: 'equals', pointer: '', value: { total: 12.5 } });
    expect(first!.assertions[3]).toEqual({ kind: 'cost', maxUsd: 0.01 });
    expect(second!.prompt).toBe('Extract the invoice fields from: Globex, 99 USD');
    expect(second!.schema).toEqual({ type: 'object' });
    expect(second!.assertions).toEqual([{ kind: 'latency', maxMs: 5000 }]);
  });

  it('lists everything it left behind, with its path and why', () => {
    const imported = importPromptfoo(CONFIG);
    if (!imported.ok) throw new Error('expected an import');
    const byPath = Object.fromEntries(imported.unsupported.map((part) => [part.path, part.reason]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'outputPath',
        'providers[1].config.top_p',
        'providers[2]',
        'tests',
        'tests[0].assert[5]',
        'tests[0].assert[4]',
        'tests[0].assert[5].weight',
        'tests[1].assert[0]',
        'tests[1].assert[1]',
      ].sort(),
    );
    expect(byPath['providers[2]']).toMatch(/"ollama" providers are not routed/);
    expect(byPath['tests[0].assert[4]']).toMatch(
      /"llm-rubric" assertions are not supported: needs a grading model/,
    );
    expect(byPath['tests[0].assert[5]']).toMatch(/raw text/);
    expect(byPath['tests[1].assert[0]']).toMatch(/negated/);
    expect(byPath['tests[1].assert[1]']).toMatch(/from a file/);
    expect(byPath['tests']).toMatch(/any JSON object/);
  });

  it('gives a suite that writes out and reads back', () => {
    const imported = importPromptfoo(CONFIG);
    if (!imported.ok) throw new Error('expected an import');
    expect(parseSuiteFile(serializeSuite(imported.definition, 'yaml'), 'yaml')).toEqual({
      ok: true,
      definition: imported.definition,
    });
  });

  it('makes a case per test and prompt, and reads chat prompts as messages', () => {
    const imported = importPromptfoo(`prompts:
  - raw: '[{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "Triage: {{ ticket }}"}]'
    label: chat
  - "Triage {{ticket}} {{missing}}"
providers: [openai:gpt-4o, openai:gpt-4o]
tests:
  - vars: { ticket: "refund please" }
`);
    if (!imported.ok) throw new Error(JSON.stringify(imported.issues));
    expect(imported.definition.targets.map((target) => target.label ?? target.model)).toEqual([
      'gpt-4o',
      'gpt-4o-2',
    ]);
    expect(imported.definition.cases.map((testCase) => testCase.id)).toEqual([
      'test-1-chat',
      'test-1-prompt-2',
    ]);
    expect(imported.definition.cases[0]!.messages).toEqual([
      { role: 'system', content: 'Answer in JSON.' },
      { role: 'user', content: 'Triage: refund please' },
    ]);
    expect(imported.definition.cases[1]!.prompt).toBe('Triage refund please {{missing}}');
    expect(imported.unsupported).toContainEqual({
      path: 'prompts[1]',
      reason: 'no value for {{missing}}: left as written',
    });
  });

  it('takes the schema of a provider’s response_format when tests name none', () => {
    const imported = importPromptfoo(`prompts: [hi]
providers:
  - id: openai:gpt-4o
    config:
      response_format:
        type: json_schema
        json_schema: { name: x, strict: false, schema: { type: object, properties: { a: { type: string } } } }
`);
    if (!imported.ok) throw new Error(JSON.stringify(imported.issues));
    expect(imported.definition.targets).toEqual([{ model: 'gpt-4o', strict: false }]);
    expect(imported.definition.cases).toEqual([
      {
        id: 'test-1',
        prompt: 'hi',
        schema: { type: 'object', properties: { a: { type: 'string' } } },
        assertions: [],
      },
    ]);
  });

  it('refuses a file with no usable provider or prompt, and YAML errors with their line', () => {
    expect(importPromptfoo('prompts: [file://p.txt]\nproviders: [exec:./run.sh]\n')).toEqual({
      ok: false,
      issues: [
        { path: 'providers', message: 'no provider could be imported as a target' },
        { path: 'prompts', message: 'no inline prompt could be imported' },
      ],
    });
    const broken = importPromptfoo('prompts:\n  - [a\n');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.issues[0]!.line).toBeGreaterThan(0);
  });

  it('keeps promptfoo’s JavaScript meaning when run by the assertion runner', async () => {
    const imported = importPromptfoo(`prompts: ["{{x}}"]
providers: [openai:gpt-4o]
tests:
  - vars: { x: "1", wanted: 12.5 }
    assert:
      - type: javascript
        value: JSON.parse(output).total === context.vars.wanted
      - type: javascript
        value: output.total > 100
      - type: javascript
        value: |
          if (output.items.length === 0) throw new Error('no items');
          return { pass: false, score: 0, reason: 'too few items' };
      - type: javascript
        value: output.items.length / 4
        threshold: 0.5
`);
    if (!imported.ok) throw new Error(JSON.stringify(imported.issues));
    const directory = await mkdtemp(join(tmpdir(), 'qa-promptfoo-'));
    try {
      const program = join(directory, 'program.cjs');
      const request = join(directory, 'request.json');
      await writeFile(program, JAVASCRIPT_ASSERTION_PROGRAM);
      const checks = imported.definition.cases[0]!.assertions.map((assertion) => ({
        code: assertion.kind === 'javascript' ? assertion.code : '',
      }));
      await writeFile(
        request,
        JSON.stringify({ output: { total: 12.5, items: [1, 2] }, checks, timeoutMs: 1000 }),
      );
      const { stdout } = await promisify(execFile)(process.execPath, [program, request]);
      const results = (JSON.parse(stdout) as { passed: boolean; message: string | null }[]).map(
        ({ passed, message }) => ({ passed, message }),
      );
      expect(results).toEqual([
        { passed: true, message: null },
        { passed: false, message: 'returned false' },
        { passed: false, message: 'too few items' },
        { passed: true, message: 'score 0.5' },
      ]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
