import type { RunComparisonJson } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { comparisonCountsText, indexComparison } from './comparison-model';

const comparison: RunComparisonJson = {
  runId: 'b',
  againstRunId: 'a',
  counts: {
    regression: 1,
    fix: 0,
    'unchanged-pass': 2,
    'unchanged-fail': 0,
    new: 1,
    removed: 1,
    'not-judged': 0,
  },
  cells: [
    { caseId: 'one', target: 'gpt', change: 'regression', before: 'passed', after: 'failed' },
    { caseId: 'one', target: 'claude', change: 'unchanged-pass', before: 'passed', after: 'passed' },
    { caseId: 'two', target: 'gpt', change: 'unchanged-pass', before: 'passed', after: 'passed' },
    { caseId: 'three', target: 'gpt', change: 'new', before: null, after: 'passed' },
    { caseId: 'gone', target: 'gpt', change: 'removed', before: 'passed', after: null },
  ],
  byTarget: [],
};

describe('a comparison read cell by cell', () => {
  const index = indexComparison(comparison, ['one', 'two', 'three']);

  it('finds each cell’s change by case id and target label', () => {
    expect(index.changeOf('one', 'gpt')).toBe('regression');
    expect(index.changeOf('one', 'claude')).toBe('unchanged-pass');
    expect(index.changeOf('two', 'claude')).toBeUndefined();
  });

  it('keeps for "only changes" the cases with a regression, fix or new cell', () => {
    expect(['one', 'two', 'three'].filter(index.caseChanged)).toEqual(['one', 'three']);
  });

  it('lists the removed cases apart, since the matrix has no row for them', () => {
    expect(index.removed).toEqual([{ caseId: 'gone', target: 'gpt' }]);
  });

  it('counts in words', () => {
    expect(comparisonCountsText(comparison.counts)).toEqual([
      '1 regression',
      '0 fixes',
      '1 new',
      '1 removed',
      '2 unchanged',
    ]);
  });
});
