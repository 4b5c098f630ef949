import type { SuiteAssertion } from '@agentdesk/api-contract';
import { describe, expect, it, vi } from 'vitest';
import type { CellOutput } from './cell-output';
import { cellVerdict } from './cell-verdict';
import { evaluateAssertions, type JavaScriptAssertionRunner } from './evaluate-assertions';

const answer = {
  total: 12.5,
  currency: 'EUR',
  items: [{ sku: 'A-1' }, { sku: 'B-2' }],
  note: 'paid',
  meta: { b: 2, a: 1 },
};

function okOutput(overrides: Partial<CellOutput> = {}): CellOutput {
  return {
    status: 'ok',
    json: answer,
    validation: { valid: true, errors: [] },
    latencyMs: 800,
    costMicros: 1_500,
    ...overrides,
  };
}

const noJavaScript: JavaScriptAssertionRunner = () => Promise.reject(new Error('no JavaScript expected'));

async function judge(assertion: SuiteAssertion, output: CellOutput = okOutput()) {
  const [schema, outcome] = await evaluateAssertions(output, [assertion], noJavaScript);
  expect(schema!.kind).toBe('schema');
  return outcome!;
}

describe('evaluateAssertions', () => {
  it.each<[string, SuiteAssertion, boolean, string | null]>([
    ['equals a number', { kind: 'equals', pointer: '/total', value: 12.5 }, true, null],
    ['equals, key order ignored', { kind: 'equals', pointer: '/meta', value: { a: 1, b: 2 } }, true, null],
    ['equals the whole output', { kind: 'equals', pointer: '', value: { ...answer } }, true, null],
    ['equals, wrong value', { kind: 'equals', pointer: '/total', value: 12 }, false, 'got 12.5'],
    [
      'equals, array order matters',
      { kind: 'equals', pointer: '/items', value: [{ sku: 'B-2' }, { sku: 'A-1' }] },
      false,
      'got [{"sku":"A-1"},{"sku":"B-2"}]',
    ],
    ['equals, nothing there', { kind: 'equals', pointer: '/x', value: 1 }, false, 'nothing at /x'],
    ['one-of', { kind: 'one-of', pointer: '/currency', values: ['USD', 'EUR'] }, true, null],
    ['one-of, deep', { kind: 'one-of', pointer: '/meta', values: [{ a: 1, b: 2 }] }, true, null],
    ['one-of, none', { kind: 'one-of', pointer: '/currency', values: ['USD', 'GBP'] }, false, 'got "EUR"'],
    ['matches', { kind: 'matches', pointer: '/items/0/sku', pattern: '^[A-Z]-\\d$' }, true, null],
    [
      'matches with flags',
      { kind: 'matches', pointer: '/currency', pattern: '^eur$', flags: 'i' },
      true,
      null,
    ],
    ['matches, no match', { kind: 'matches', pointer: '/currency', pattern: '^USD$' }, false, 'got "EUR"'],
    [
      'matches, not a string',
      { kind: 'matches', pointer: '/total', pattern: '1' },
      false,
      'a number, not a string',
    ],
    ['range', { kind: 'range', pointer: '/total', min: 0, max: 12.5 }, true, null],
    ['range, below', { kind: 'range', pointer: '/total', min: 13 }, false, 'got 12.5'],
    ['range, not a number', { kind: 'range', pointer: '/currency', max: 1 }, false, 'a string, not a number'],
    ['length of an array', { kind: 'length', pointer: '/items', min: 2, max: 2 }, true, null],
    ['length of a string', { kind: 'length', pointer: '/note', max: 3 }, false, 'length 4'],
    [
      'length of an object',
      { kind: 'length', pointer: '/meta', min: 1 },
      false,
      'an object, not an array or a string',
    ],
    ['latency', { kind: 'latency', maxMs: 800 }, true, null],
    ['latency, too slow', { kind: 'latency', maxMs: 799 }, false, 'took 800 ms'],
    ['cost', { kind: 'cost', maxUsd: 0.0015 }, true, null],
    ['cost, too dear', { kind: 'cost', maxUsd: 0.001 }, false, 'cost $0.0015'],
  ])('%s', async (_name, assertion, passed, message) => {
    expect(await judge(assertion)).toMatchObject({ kind: assertion.kind, passed, message });
  });

  it('does not fail a cost exactly at its ceiling because of float noise', async () => {
    expect(await judge({ kind: 'cost', maxUsd: 0.57 }, okOutput({ costMicros: 570_000 }))).toMatchObject({
      passed: true,
    });
  });

  it('cannot judge a cost when the model has no price', async () => {
    expect(await judge({ kind: 'cost', maxUsd: 1 }, okOutput({ costMicros: null }))).toMatchObject({
      passed: null,
      message: 'the model has no price',
    });
  });

  it('labels outcomes with a readable description unless the assertion has a label', async () => {
    const outcomes = await evaluateAssertions(
      okOutput(),
      [
        { kind: 'equals', pointer: '/total', value: 12.5 },
        { kind: 'one-of', pointer: '', values: [1, 'a'] },
        { kind: 'range', pointer: '/total', min: 1, max: 20 },
        { kind: 'length', pointer: '/items', min: 1 },
        { kind: 'latency', maxMs: 2_000 },
        { kind: 'cost', maxUsd: 0.01 },
        { kind: 'matches', pointer: '/note', pattern: 'pa', flags: 'i' },
        { kind: 'equals', pointer: '/currency', value: 'EUR', label: 'billed in euros' },
      ],
      noJavaScript,
    );
    expect(outcomes.map((outcome) => outcome.label)).toEqual([
      'valid against the schema',
      '/total equals 12.5',
      'the output is one of 1, "a"',
      '/total is within [1, 20]',
      '/items has a length at least 1',
      'latency at most 2000 ms',
      'cost at most $0.01',
      '/note matches /pa/i',
      'billed in euros',
    ]);
  });

  it('reports schema errors by path', async () => {
    const output = okOutput({
      validation: { valid: false, errors: [{ path: '/total', keyword: 'type', message: 'must be number' }] },
    });
    const [schema] = await evaluateAssertions(output, [], noJavaScript);
    expect(schema).toEqual({
      kind: 'schema',
      label: 'valid against the schema',
      passed: false,
      message: '/total: must be number',
    });
  });

  it('judges nothing when the call failed: every outcome is "no output"', async () => {
    const runJavaScript = vi.fn<JavaScriptAssertionRunner>();
    const outcomes = await evaluateAssertions(
      {
        status: 'error',
        json: null,
        validation: null,
        latencyMs: 30,
        costMicros: null,
        errorMessage: 'HTTP 500',
      },
      [
        { kind: 'latency', maxMs: 1_000 },
        { kind: 'javascript', code: 'return true' },
      ],
      runJavaScript,
    );
    expect(outcomes.map(({ kind, passed, message }) => ({ kind, passed, message }))).toEqual([
      { kind: 'schema', passed: null, message: 'no output' },
      { kind: 'latency', passed: null, message: 'no output' },
      { kind: 'javascript', passed: null, message: 'no output' },
    ]);
    expect(runJavaScript).not.toHaveBeenCalled();
  });

  it('fails pointer and JavaScript assertions when the answer is not JSON, but still judges latency', async () => {
    const output = okOutput({
      json: null,
      validation: {
        valid: false,
        errors: [{ path: '', keyword: 'json', message: 'answer is not valid JSON: Unexpected token' }],
      },
    });
    const outcomes = await evaluateAssertions(
      output,
      [
        { kind: 'equals', pointer: '', value: null },
        { kind: 'latency', maxMs: 1_000 },
        { kind: 'javascript', code: 'return true' },
      ],
      noJavaScript,
    );
    expect(outcomes.map(({ passed, message }) => ({ passed, message }))).toEqual([
      { passed: false, message: 'answer is not valid JSON: Unexpected token' },
      { passed: false, message: 'the answer is not JSON' },
      { passed: true, message: null },
      { passed: false, message: 'the answer is not JSON' },
    ]);
  });

  it('sends every JavaScript check of a cell to one runner call, and keeps the order', async () => {
    const runJavaScript = vi.fn<JavaScriptAssertionRunner>(async (_output, checks) =>
      checks.map((check) => ({
        passed: check.code.includes('true'),
        message: check.code.includes('true') ? null : 'returned false',
        durationMs: 2,
      })),
    );
    const outcomes = await evaluateAssertions(
      okOutput(),
      [
        { kind: 'javascript', code: 'return true' },
        { kind: 'equals', pointer: '/total', value: 12.5 },
        { kind: 'javascript', code: 'return false' },
      ],
      runJavaScript,
    );
    expect(runJavaScript).toHaveBeenCalledTimes(1);
    expect(runJavaScript).toHaveBeenCalledWith(answer, [{ code: 'return true' }, { code: 'return false' }]);
    expect(
      outcomes.map(({ kind, passed, message, durationMs }) => ({ kind, passed, message, durationMs })),
    ).toEqual([
      { kind: 'schema', passed: true, message: null, durationMs: undefined },
      { kind: 'javascript', passed: true, message: null, durationMs: 2 },
      { kind: 'equals', passed: true, message: null, durationMs: undefined },
      { kind: 'javascript', passed: false, message: 'returned false', durationMs: 2 },
    ]);
  });

  it('marks JavaScript checks not judged when the runner fails', async () => {
    const outcomes = await evaluateAssertions(okOutput(), [{ kind: 'javascript', code: 'return true' }], () =>
      Promise.reject(new Error('the sandbox is not available')),
    );
    expect(outcomes[1]).toMatchObject({
      passed: null,
      message: 'the JavaScript runner failed: the sandbox is not available',
    });
  });
});

describe('cellVerdict', () => {
  it('passes when every outcome passed', async () => {
    const output = okOutput();
    const outcomes = await evaluateAssertions(output, [{ kind: 'latency', maxMs: 1_000 }], noJavaScript);
    expect(cellVerdict(output, outcomes)).toEqual({ status: 'passed', failedKinds: [], reason: null });
  });

  it('fails on any outcome not passed (null included), naming each kind once and the first reason', async () => {
    const output = okOutput({ costMicros: null });
    const outcomes = await evaluateAssertions(
      output,
      [
        { kind: 'equals', pointer: '/total', value: 1 },
        { kind: 'cost', maxUsd: 1 },
        { kind: 'equals', pointer: '/currency', value: 'USD' },
      ],
      noJavaScript,
    );
    expect(cellVerdict(output, outcomes)).toEqual({
      status: 'failed',
      failedKinds: ['equals', 'cost'],
      reason: '/total equals 1: got 12.5',
    });
  });

  it('errors when the model call failed, with its message', () => {
    const output: CellOutput = {
      status: 'error',
      json: null,
      validation: null,
      latencyMs: 5,
      costMicros: null,
      errorMessage: 'timed out',
    };
    expect(cellVerdict(output, [])).toEqual({ status: 'error', failedKinds: [], reason: 'timed out' });
  });
});
