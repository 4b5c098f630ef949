import { targetLabel, type CellStatus } from '@agentdesk/api-contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cell, definitionOf, runOfPool } from '../test-support/runs';
import { compareRuns } from './compare-runs';

const finished: readonly CellStatus[] = ['passed', 'failed', 'error'];

describe('compareRuns', () => {
  it('classifies every cell by case id and target label', () => {
    fc.assert(
      fc.property(runOfPool, runOfPool, (before, after) => {
        const statusOf = (run: typeof before, caseId: string, label: string): CellStatus | null => {
          const found = run.cells.find(
            (c) => c.caseId === caseId && targetLabel(run.definition.targets[c.targetIndex]!) === label,
          );
          return found?.status ?? null;
        };
        const comparison = compareRuns(before, after);
        const keys = comparison.cells.map((c) => `${c.caseId}/${c.target}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(comparison.cells.filter((c) => c.after !== null)).toHaveLength(after.cells.length);
        for (const compared of comparison.cells) {
          const was = statusOf(before, compared.caseId, compared.target);
          const is = statusOf(after, compared.caseId, compared.target);
          expect([compared.before, compared.after]).toEqual([was, is]);
          let expected: string;
          if (was === null) expected = 'new';
          else if (is === null) expected = 'removed';
          else if (!finished.includes(was) || !finished.includes(is)) expected = 'not-judged';
          else if (was === 'passed' && is !== 'passed') expected = 'regression';
          else if (was !== 'passed' && is === 'passed') expected = 'fix';
          else expected = is === 'passed' ? 'unchanged-pass' : 'unchanged-fail';
          expect(compared.change).toBe(expected);
        }
        const total = Object.values(comparison.counts).reduce((sum, count) => sum + count, 0);
        expect(total).toBe(comparison.cells.length);
        for (const [change, count] of Object.entries(comparison.counts)) {
          expect(comparison.cells.filter((c) => c.change === change)).toHaveLength(count);
        }
      }),
    );
  });

  it('matches targets by label when their order changed, and reports pass rates per target on both sides', () => {
    const before = {
      definition: definitionOf(['a', 'b'], ['x', 'y']),
      cells: [
        cell(0, 'a', 0, 'passed'),
        cell(0, 'a', 1, 'passed'),
        cell(1, 'b', 0, 'failed'),
        cell(1, 'b', 1, 'passed'),
      ],
    };
    const after = {
      definition: definitionOf(['b', 'c'], ['y', 'x']),
      cells: [
        cell(0, 'b', 0, 'error'),
        cell(0, 'b', 1, 'passed'),
        cell(1, 'c', 0, 'passed'),
        cell(1, 'c', 1, 'pending'),
      ],
    };
    const comparison = compareRuns(before, after);
    expect(comparison.cells).toEqual([
      { caseId: 'b', target: 'y', change: 'regression', before: 'passed', after: 'error' },
      { caseId: 'b', target: 'x', change: 'fix', before: 'failed', after: 'passed' },
      { caseId: 'c', target: 'y', change: 'new', before: null, after: 'passed' },
      { caseId: 'c', target: 'x', change: 'new', before: null, after: 'pending' },
      { caseId: 'a', target: 'x', change: 'removed', before: 'passed', after: null },
      { caseId: 'a', target: 'y', change: 'removed', before: 'passed', after: null },
    ]);
    expect(comparison.counts).toEqual({
      regression: 1,
      fix: 1,
      'unchanged-pass': 0,
      'unchanged-fail': 0,
      new: 2,
      removed: 2,
      'not-judged': 0,
    });
    expect(comparison.byTarget).toEqual([
      { target: 'y', before: 1, after: 0.5 },
      { target: 'x', before: 0.5, after: 1 },
    ]);
  });
});
