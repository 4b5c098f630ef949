import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { junitXml, type JUnitCase } from './junit-xml';
import { elementsOf, parseStrictXml, textOf } from './test-support/strict-xml';

const cases: JUnitCase[] = [
  { name: 'invoice-eur', className: 'Demo.gpt', timeSeconds: 0.25, outcome: { kind: 'passed' } },
  {
    name: 'ticket <urgent> & "quoted"',
    className: 'Demo.gpt',
    timeSeconds: 1.5,
    outcome: {
      kind: 'failure',
      message: 'failed: equals, schema',
      details: '/category equals "account": got "technical"\nschema: /priority must be one of ["low","high"]',
    },
  },
  {
    name: 'review',
    className: 'Demo.gpt',
    timeSeconds: null,
    outcome: { kind: 'error', message: 'provider answered 529', details: 'overloaded' },
  },
  {
    name: 'late',
    className: 'Demo.gpt',
    timeSeconds: null,
    outcome: { kind: 'skipped', message: 'not judged (cancelled)' },
  },
];

/** Invalid XML characters are replaced; everything else must come back exactly. */
const expectedBack = (value: string) =>
  value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');

describe('JUnit XML', () => {
  it('has one testsuite per target and one testcase per case, with counts', () => {
    const root = parseStrictXml(
      junitXml('Demo: structured extraction', [
        { name: 'Demo — gpt-4o-mini', cases },
        { name: 'Demo — gemini', cases: [cases[0]!] },
      ]),
    );
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toEqual({
      name: 'Demo: structured extraction',
      tests: '5',
      failures: '1',
      errors: '1',
      skipped: '1',
    });
    const [first, second] = elementsOf(root, 'testsuite');
    expect(first!.attributes).toEqual({
      name: 'Demo — gpt-4o-mini',
      tests: '4',
      failures: '1',
      errors: '1',
      skipped: '1',
      time: '1.750',
    });
    expect(second!.attributes).toMatchObject({ tests: '1', failures: '0' });
    const testcases = elementsOf(first!, 'testcase');
    expect(testcases.map((testcase) => testcase.attributes.name)).toEqual(cases.map((entry) => entry.name));
    expect(testcases[0]).toEqual({
      name: 'testcase',
      attributes: { name: 'invoice-eur', classname: 'Demo.gpt', time: '0.250' },
      children: [],
    });

    const [failure] = elementsOf(testcases[1]!, 'failure');
    expect(failure!.attributes).toEqual({ message: 'failed: equals, schema', type: 'assertion' });
    expect(textOf(failure!)).toBe(cases[1]!.outcome.kind === 'failure' ? cases[1]!.outcome.details : '');
    const [error] = elementsOf(testcases[2]!, 'error');
    expect(error!.attributes).toEqual({ message: 'provider answered 529', type: 'model-call' });
    expect(testcases[2]!.attributes.time).toBeUndefined();
    expect(elementsOf(testcases[3]!, 'skipped')[0]!.attributes).toEqual({
      message: 'not judged (cancelled)',
    });
  });

  it('carries any text — quotes, markup, line breaks, controls, lone surrogates — and stays well-formed', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({
        unit: fc.constantFrom(
          '<',
          '>',
          '&',
          '"',
          "'",
          ']',
          '\r',
          '\n',
          '\t',
          '\u0000',
          '\uD800',
          '\uFFFE',
          'é',
          '😀',
          'a',
        ),
        maxLength: 40,
      }),
    );
    fc.assert(
      fc.property(anyText, anyText, anyText, anyText, (name, className, message, details) => {
        const xml = junitXml(name, [
          {
            name,
            cases: [{ name, className, timeSeconds: 1, outcome: { kind: 'failure', message, details } }],
          },
        ]);
        const root = parseStrictXml(xml);
        expect(root.attributes.name).toBe(expectedBack(name));
        const testcase = elementsOf(elementsOf(root, 'testsuite')[0]!, 'testcase')[0]!;
        expect(testcase.attributes).toMatchObject({
          name: expectedBack(name),
          classname: expectedBack(className),
        });
        const failure = elementsOf(testcase, 'failure')[0]!;
        expect(failure.attributes.message).toBe(expectedBack(message));
        expect(textOf(failure)).toBe(expectedBack(details));
      }),
      { numRuns: 500 },
    );
  });
});

describe('the strict reader used above', () => {
  it.each([
    ['<a>&</a>'],
    ['<a>x < y</a>'],
    ['<a><b></a>'],
    ['<a x="1" x="2"/>'],
    ['<a x=1/>'],
    ['<a>\u0001</a>'],
    ['<a>&#1;</a>'],
    ['<a>]]></a>'],
    ['<a/><b/>'],
    ['<a>'],
  ])('refuses %j', (xml) => {
    expect(() => parseStrictXml(xml)).toThrow();
  });

  it('normalizes line ends and attribute whitespace like a real parser', () => {
    const root = parseStrictXml('<a v="x\ny&#10;z">p\r\nq&#13;</a>');
    expect(root.attributes.v).toBe('x y\nz');
    expect(textOf(root)).toBe('p\nq\r');
  });
});
