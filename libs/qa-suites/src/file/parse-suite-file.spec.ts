import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suiteDefinition } from '../test-support/arbitraries';
import { parseSuiteFile } from './parse-suite-file';
import { serializeSuite } from './serialize-suite';

const VALID_YAML = `name: Invoices
targets:
  - model: gpt-4o
cases:
  - id: invoice-1
    prompt: Extract the invoice.
    schema:
      type: object
    assertions:
      - kind: equals
        pointer: /total
        value: 12.5
`;

describe('parseSuiteFile', () => {
  it('reads a YAML suite and fills in the defaults', () => {
    const parsed = parseSuiteFile(VALID_YAML, 'yaml');
    expect(parsed).toEqual({
      ok: true,
      definition: {
        name: 'Invoices',
        targets: [{ model: 'gpt-4o', strict: true }],
        timeoutMs: 60_000,
        cases: [
          {
            id: 'invoice-1',
            prompt: 'Extract the invoice.',
            schema: { type: 'object' },
            assertions: [{ kind: 'equals', pointer: '/total', value: 12.5 }],
          },
        ],
      },
    });
  });

  it('round-trips every definition through YAML and JSON', () => {
    fc.assert(
      fc.property(
        suiteDefinition,
        fc.constantFrom('yaml' as const, 'json' as const),
        (definition, format) => {
          const parsed = parseSuiteFile(serializeSuite(definition, format), format);
          expect(parsed).toEqual({ ok: true, definition });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names the path and line of a value the format refuses', () => {
    const text = VALID_YAML.replace('pointer: /total', 'pointer: total');
    const parsed = parseSuiteFile(text, 'yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toEqual([
      { path: 'cases[0].assertions[0].pointer', message: expect.stringContaining('JSON pointer'), line: 11 },
    ]);
  });

  it('places a missing key on its parent’s line and says it is required', () => {
    const text = VALID_YAML.replace('        value: 12.5\n', '');
    const parsed = parseSuiteFile(text, 'yaml');
    expect(parsed).toEqual({
      ok: false,
      issues: [{ path: 'cases[0].assertions[0].value', message: 'is required', line: 10 }],
    });
  });

  it('lists the assertion kinds when the kind is unknown', () => {
    const parsed = parseSuiteFile(VALID_YAML.replace('kind: equals', 'kind: contains'), 'yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues[0]).toMatchObject({ path: 'cases[0].assertions[0].kind', line: 10 });
    expect(parsed.issues[0]!.message).toMatch(
      /must be one of equals, one-of, matches, range, length, latency, cost, javascript/,
    );
  });

  it('lists every problem at once: unknown keys, a bad value, duplicate case ids and targets, a case with both prompt and messages', () => {
    const text = `name: S
targets: [{ model: gpt-4o }, { model: gpt-4o, temperature: 5 }]
colour: blue
cases:
  - id: a
    prompt: p
    schema: {}
    assertions: [{ kind: matches, pointer: /x, pattern: "(" }, { kind: range, pointer: /n, min: 3, max: 1, extra: 1 }]
  - id: a
    prompt: p
    messages: [{ role: user, content: hi }]
    schema: {}
    timeout: 3
`;
    const parsed = parseSuiteFile(text, 'yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const found = parsed.issues.map((issue) => `${issue.path} (line ${issue.line}): ${issue.message}`);
    for (const expected of [
      /^ \(line \d+\): .*colour/,
      /^targets\[1\]\.temperature \(line 2\): /,
      /^targets\[1\] \(line 2\): target "gpt-4o" is listed twice/,
      /^cases\[0\]\.assertions\[0\]\.pattern \(line 8\): not a valid JavaScript regular expression/,
      /^cases\[0\]\.assertions\[1\]\.min \(line 8\): "min" is above "max"/,
      /^cases\[0\]\.assertions\[1\].*extra/,
      /^cases\[1\]\.id \(line 9\): case id "a" is used twice/,
      /^cases\[1\]\.prompt \(line 10\): a case has either "prompt" or "messages", not both/,
      /^cases\[1\].*timeout/,
    ])
      expect(found, String(expected)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
    expect(found).toHaveLength(9);
  });

  it('refuses a pattern that does not compile and bounds the wrong way round', () => {
    const text = VALID_YAML.replace(
      '        value: 12.5\n',
      '        value: 12.5\n      - kind: matches\n        pointer: /sku\n        pattern: "([A-Z]"\n      - kind: range\n        pointer: /total\n        min: 10\n        max: 1\n',
    );
    expect(parseSuiteFile(text, 'yaml')).toEqual({
      ok: false,
      issues: [
        {
          path: 'cases[0].assertions[1].pattern',
          message: 'not a valid JavaScript regular expression',
          line: 15,
        },
        { path: 'cases[0].assertions[2].min', message: '"min" is above "max"', line: 18 },
      ],
    });
  });

  it('reports YAML syntax errors with their line', () => {
    const parsed = parseSuiteFile('name: S\ntargets:\n  - model: [gpt-4o\ncases: []\n', 'yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.length).toBeGreaterThan(0);
    expect(parsed.issues[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it('reports JSON syntax errors with their line, and schema issues in JSON with theirs', () => {
    const broken = parseSuiteFile(
      '{\n  "name": "S",\n  "targets": [\n    {"model": "gpt-4o",}\n  ]\n}',
      'json',
    );
    expect(broken).toEqual({ ok: false, issues: [{ path: '', message: expect.any(String), line: 4 }] });
    const invalid = parseSuiteFile(
      JSON.stringify(
        {
          name: 'S',
          targets: [{ model: 'gpt-4o', temperature: 7 }],
          cases: [{ id: 'a', prompt: 'p', schema: {} }],
        },
        null,
        2,
      ),
      'json',
    );
    expect(invalid).toEqual({
      ok: false,
      issues: [{ path: 'targets[0].temperature', message: expect.any(String), line: 6 }],
    });
  });

  it('refuses an empty file and a file of several YAML documents', () => {
    expect(parseSuiteFile('  \n', 'yaml')).toEqual({
      ok: false,
      issues: [{ path: '', message: 'the file is empty' }],
    });
    const several = parseSuiteFile(`${VALID_YAML}---\n${VALID_YAML}`, 'yaml');
    expect(several.ok).toBe(false);
  });

  describe('a value nested deeper than the limit (every spelling: YAML flow, YAML block, aliases, JSON)', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const withEquals = (value: string) => VALID_YAML.replace('value: 12.5', `value: ${value}`);
    const expectTooDeep = (text: string, format: 'yaml' | 'json', path: RegExp) => {
      const parsed = parseSuiteFile(text, format);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.issues).toHaveLength(1);
      expect(parsed.issues[0]!.path).toMatch(path);
      expect(parsed.issues[0]!.message).toMatch(/nested more than 100 levels deep/);
      expect(parsed.issues[0]!.message).not.toMatch(/call stack/i);
      return parsed.issues[0]!;
    };

    it('is one issue naming the path, the limit and the line — never the engine’s stack overflow', () => {
      for (const depth of [101, 1_000, 20_000]) {
        const issue = expectTooDeep(
          withEquals(nested(depth)),
          'yaml',
          /^cases\[0\]\.assertions\[0\]\.value(\[0\])+…$/,
        );
        expect(issue?.line).toBe(12);
      }
      let block = 'name: deep\nx:\n';
      for (let level = 1; level <= 110; level++) block += `${'  '.repeat(level)}k:\n`;
      expectTooDeep(`${block}${'  '.repeat(111)}v`, 'yaml', /^x(\.k)+…$/);
    });

    it('counts levels that aliases stack, and JSON text the same way', () => {
      let anchors = '';
      for (let level = 0; level < 40; level++)
        anchors += `a${level}: &a${level} [${level === 0 ? nested(70) : `*a${level - 1}`}]\n`;
      expectTooDeep(`name: aliases\n${anchors}`, 'yaml', /^a\d+/);
      const json = JSON.stringify({ name: 'json', cases: [] }).replace('[]', nested(5_000));
      expectTooDeep(json, 'json', /^cases(\[0\])+…$/);
    });

    it('accepts the limit itself', () => {
      // The file, its cases list, the case, its assertions list and the assertion are five levels.
      const parsed = parseSuiteFile(withEquals(nested(100 - 5)), 'yaml');
      expect(parsed.ok).toBe(true);
    });
  });
});
