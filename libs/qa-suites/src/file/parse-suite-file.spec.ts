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

  it('reports unknown keys, duplicate case ids and a case with both prompt and messages', () => {
    const text = `name: S
targets: [{ model: gpt-4o }]
colour: blue
cases:
  - id: a
    prompt: p
    schema: {}
  - id: a
    prompt: p
    messages: [{ role: user, content: hi }]
    schema: {}
`;
    const parsed = parseSuiteFile(text, 'yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '', message: expect.stringContaining('colour') }),
        expect.objectContaining({
          path: 'cases[1].prompt',
          message: expect.stringContaining('not both'),
          line: 9,
        }),
      ]),
    );
    const fixed = parseSuiteFile(
      text.replace('colour: blue\n', '').replace('    messages: [{ role: user, content: hi }]\n', ''),
      'yaml',
    );
    expect(fixed).toEqual({
      ok: false,
      issues: [{ path: 'cases[1].id', message: 'case id "a" is used twice', line: 7 }],
    });
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
});
