import { describe, expect, it } from 'vitest';
import { exampleSuiteText } from '../example-suite';
import { pathText, readSuiteText, suiteYamlText } from './suite-text';

describe('reading a suite written in the editor', () => {
  it('reads the example the "New suite" form starts with', () => {
    const reading = readSuiteText(exampleSuiteText, 'yaml');
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.definition.cases.length).toBeGreaterThan(0);
  });

  it('names a wrong field by its path and the line it is on', () => {
    const text = [
      'name: Broken',
      'targets:',
      '  - model: gpt-test',
      'cases:',
      '  - id: one',
      '    prompt: hi',
      '    schema: { type: object }',
      '    assertions:',
      '      - kind: equals',
      '        pointer: no-slash',
      '        value: 1',
    ].join('\n');
    const reading = readSuiteText(text, 'yaml');
    expect(reading).toEqual({
      ok: false,
      issues: [expect.objectContaining({ path: 'cases[0].assertions[0].pointer', line: 10 })],
    });
  });

  it('points a missing field at the line of the object that lacks it', () => {
    const reading = readSuiteText('{\n  "name": "x",\n  "cases": []\n}', 'json');
    expect(reading.ok).toBe(false);
    if (!reading.ok) {
      const targets = reading.issues.find((issue) => issue.path === 'targets');
      expect(targets?.line).toBe(1);
      expect(reading.issues.find((issue) => issue.path === 'cases')?.line).toBe(3);
    }
  });

  it('says where the text is not YAML or not JSON', () => {
    const yaml = readSuiteText('name: [unclosed', 'yaml');
    expect(yaml.ok).toBe(false);
    if (!yaml.ok) expect(yaml.issues[0]?.message).toMatch(/^not valid YAML/);
    const json = readSuiteText('name: plain yaml', 'json');
    expect(json.ok).toBe(false);
    if (!json.ok) expect(json.issues[0]?.message).toMatch(/^not valid JSON/);
  });

  it('writes a definition as YAML the editor reads back unchanged', () => {
    const reading = readSuiteText(exampleSuiteText, 'yaml');
    if (!reading.ok) throw new Error('the example is valid');
    expect(readSuiteText(suiteYamlText(reading.definition), 'yaml')).toEqual(reading);
  });

  it('writes paths the way the suite file format documents them', () => {
    expect(pathText(['cases', 3, 'assertions', 0, 'pointer'])).toBe('cases[3].assertions[0].pointer');
    expect(pathText([])).toBe('');
  });
});
