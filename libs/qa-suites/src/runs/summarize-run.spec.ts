import { describe, expect, it } from 'vitest';
import { cell, definitionOf } from '../test-support/runs';
import { summarizeRun } from './summarize-run';

describe('summarizeRun', () => {
  const definition = definitionOf(['a', 'b', 'c'], ['x', 'y']);
  definition.cases[0]!.assertions = [{ kind: 'equals', pointer: '/n', value: 1 }];
  definition.cases[1]!.assertions = [
    { kind: 'latency', maxMs: 100 },
    { kind: 'equals', pointer: '/n', value: 2 },
  ];

  const cells = [
    cell(0, 'a', 0, 'passed', { latencyMs: 100, costMicros: 10 }),
    cell(0, 'a', 1, 'failed', { latencyMs: 300, costMicros: null, failedKinds: ['equals'] }),
    cell(1, 'b', 0, 'failed', { latencyMs: 200, costMicros: 30, failedKinds: ['schema', 'latency'] }),
    cell(1, 'b', 1, 'error', { latencyMs: 5, reason: 'HTTP 500' }),
    cell(2, 'c', 0, 'pending'),
    cell(2, 'c', 1, 'cancelled'),
  ];

  it('counts pass rates per target, an error counting as judged and not passed', () => {
    const { byTarget } = summarizeRun(definition, cells);
    expect(byTarget).toEqual([
      { key: 'x', passed: 1, judged: 2, rate: 0.5, costMicros: 40, latencyP50Ms: 100, latencyP95Ms: 200 },
      { key: 'y', passed: 0, judged: 2, rate: 0, costMicros: null, latencyP50Ms: 300, latencyP95Ms: 300 },
    ]);
  });

  it('counts pass rates per assertion kind over the answered cells whose case has that kind', () => {
    const { byAssertionKind } = summarizeRun(definition, cells);
    const rates = byAssertionKind.map(({ key, passed, judged, rate }) => ({ key, passed, judged, rate }));
    expect(rates).toEqual([
      { key: 'schema', passed: 2, judged: 3, rate: 2 / 3 },
      { key: 'equals', passed: 2, judged: 3, rate: 2 / 3 },
      { key: 'latency', passed: 0, judged: 1, rate: 0 },
    ]);
  });

  it('has null rates when nothing was judged', () => {
    const { byTarget } = summarizeRun(definition, []);
    expect(byTarget.map((rate) => rate.rate)).toEqual([null, null]);
  });
});
