/** One test case of a JUnit report: a suite case on one target. */
export interface JUnitCase {
  readonly name: string;
  readonly className: string;
  readonly timeSeconds: number | null;
  readonly outcome:
    | { readonly kind: 'passed' }
    /** An assertion failed: `message` in short, `details` one line per failed assertion. */
    | { readonly kind: 'failure'; readonly message: string; readonly details: string }
    /** The model call failed: no answer to judge. */
    | { readonly kind: 'error'; readonly message: string; readonly details: string }
    /** Never judged (cancelled). */
    | { readonly kind: 'skipped'; readonly message: string };
}

/** One `<testsuite>`: every case of the run on one target. */
export interface JUnitSuite {
  readonly name: string;
  readonly cases: readonly JUnitCase[];
}

/**
 * Characters XML 1.0 cannot carry at all, escaped or not (controls other than tab, newline and
 * carriage return; lone surrogates; U+FFFE/U+FFFF): model output may hold them, so they become U+FFFD.
 */
const notXmlCharacter = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text content: `&` and `<` must be escaped, `>` too (`]]>` is not allowed in text), and carriage
 * returns become references, or a parser's end-of-line handling would turn them into newlines.
 */
export function escapeXmlText(value: string): string {
  return value
    .replace(notXmlCharacter, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('\r', '&#13;');
}

/**
 * An attribute value in double quotes. Tabs and line breaks become character references, or a
 * parser would normalize them to spaces and the message would lose its lines.
 */
export function escapeXmlAttribute(value: string): string {
  return escapeXmlText(value)
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;');
}

function attributes(values: Readonly<Record<string, string | number | null>>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== null)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}

function seconds(value: number | null): string | null {
  return value === null ? null : value.toFixed(3);
}

function testCase(entry: JUnitCase): string {
  const head = `    <testcase${attributes({ name: entry.name, classname: entry.className, time: seconds(entry.timeSeconds) })}`;
  const outcome = entry.outcome;
  switch (outcome.kind) {
    case 'passed':
      return `${head}/>`;
    case 'failure':
    case 'error':
      return [
        `${head}>`,
        `      <${outcome.kind}${attributes({ message: outcome.message, type: outcome.kind === 'failure' ? 'assertion' : 'model-call' })}>${escapeXmlText(outcome.details)}</${outcome.kind}>`,
        '    </testcase>',
      ].join('\n');
    case 'skipped':
      return [
        `${head}>`,
        `      <skipped${attributes({ message: outcome.message })}/>`,
        '    </testcase>',
      ].join('\n');
  }
}

/** A JUnit XML report (the Ant/Jenkins/GitLab dialect): one `<testsuite>` per target. */
export function junitXml(name: string, suites: readonly JUnitSuite[]): string {
  const count = (suite: JUnitSuite, kind: JUnitCase['outcome']['kind']) =>
    suite.cases.filter((entry) => entry.outcome.kind === kind).length;
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const bodies = suites.map((suite) => {
    const tally = {
      tests: suite.cases.length,
      failures: count(suite, 'failure'),
      errors: count(suite, 'error'),
      skipped: count(suite, 'skipped'),
    };
    totals.tests += tally.tests;
    totals.failures += tally.failures;
    totals.errors += tally.errors;
    totals.skipped += tally.skipped;
    const time = suite.cases.reduce((sum, entry) => sum + (entry.timeSeconds ?? 0), 0);
    return [
      `  <testsuite${attributes({ name: suite.name, ...tally, time: seconds(time) })}>`,
      ...suite.cases.map(testCase),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name, ...totals })}>`,
    ...bodies,
    '</testsuites>',
    '',
  ].join('\n');
}
