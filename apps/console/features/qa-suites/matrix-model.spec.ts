import type { CellSummaryJson, RunCountsJson } from '@agentdesk/api-contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCells, cellLabel, changeMark, matrixOf, progressPercent } from './matrix-model';

const counts = (done: number, total: number): RunCountsJson => ({
  total,
  done,
  passed: done,
  failed: 0,
  errored: 0,
  cancelled: 0,
});

function cell(caseIndex: number, targetIndex: number, status: CellSummaryJson['status']): CellSummaryJson {
  return {
    caseId: `case-${caseIndex}`,
    caseIndex,
    targetIndex,
    status,
    latencyMs: null,
    costMicros: null,
    inputTokens: null,
    outputTokens: null,
    failedKinds: status === 'failed' ? ['schema'] : [],
    reason: null,
  };
}

function run(cases: number, targets: number) {
  const cells: CellSummaryJson[] = [];
  for (let c = 0; c < cases; c += 1) for (let t = 0; t < targets; t += 1) cells.push(cell(c, t, 'pending'));
  return {
    cases: Array.from({ length: cases }, (_, index) => ({ id: `case-${index}`, description: null })),
    targets: Array.from({ length: targets }, (_, index) => ({ model: `model-${index}`, strict: true })),
    cells,
    counts: counts(0, cases * targets),
  };
}

describe('the run matrix', () => {
  it('lays cells out as rows of cases and columns of targets', () => {
    const twoByThree = run(2, 3);
    twoByThree.cells[5] = cell(1, 2, 'failed');
    const matrix = matrixOf({ ...twoByThree, cells: twoByThree.cells.reverse() });
    expect(matrix.rows.map((row) => row.caseId)).toEqual(['case-0', 'case-1']);
    expect(matrix.rows[0]?.cells.map(cellLabel)).toEqual(['pending', 'pending', 'pending']);
    expect(matrix.rows[1]?.cells.map(cellLabel)).toEqual(['pending', 'pending', 'failed (schema)']);
  });

  it('keeps of each cell only what the matrix shows (the page sends it to the browser)', () => {
    const matrix = matrixOf(run(1, 1));
    expect(matrix.rows[0]?.cells).toEqual([{ status: 'pending', failedKinds: [] }]);
  });

  it('renews only the rows a batch touches, so the other rows keep their identity', () => {
    const before = matrixOf(run(3, 2));
    const after = applyCells(before, [cell(1, 0, 'passed'), cell(1, 1, 'failed')], counts(2, 6));
    expect(after.rows[0]).toBe(before.rows[0]);
    expect(after.rows[2]).toBe(before.rows[2]);
    expect(after.rows[1]).not.toBe(before.rows[1]);
    expect(after.rows[1]?.cells.map(cellLabel)).toEqual(['passed', 'failed (schema)']);
    expect(after.counts.done).toBe(2);
  });

  it('ends the same however the finished cells are split into batches', () => {
    const base = matrixOf(run(4, 3));
    const finished = fc.array(
      fc.record({
        caseIndex: fc.nat(3),
        targetIndex: fc.nat(2),
        status: fc.constantFrom('passed', 'failed', 'error', 'cancelled'),
      }),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(finished, fc.array(fc.nat(20), { maxLength: 5 }), (updates, cuts) => {
        const cells = updates.map((u) => cell(u.caseIndex, u.targetIndex, u.status));
        const whole = applyCells(base, cells, counts(cells.length, 12));
        const points = [...new Set(cuts.map((point) => point % (cells.length + 1)))].sort((a, b) => a - b);
        let split = base;
        let from = 0;
        for (const point of [...points, cells.length]) {
          split = applyCells(split, cells.slice(from, point), counts(point, 12));
          from = point;
        }
        expect(split.rows).toEqual(whole.rows);
      }),
    );
  });

  it('ignores a cell it has no slot for', () => {
    const before = matrixOf(run(1, 1));
    const after = applyCells(before, [cell(5, 0, 'passed'), cell(0, 3, 'passed')], counts(0, 1));
    expect(after.rows).toBe(before.rows);
  });

  it('says each outcome in words and marks only real changes', () => {
    expect(cellLabel(undefined)).toBe('not in this run');
    expect(cellLabel(cell(0, 0, 'error'))).toBe('error');
    expect(changeMark('regression')).toContain('regression');
    expect(changeMark('unchanged-pass')).toBeNull();
  });

  it('shows progress as a whole percentage; a run of no cells is done', () => {
    expect(progressPercent(counts(1, 3))).toBe(33);
    expect(progressPercent(counts(0, 0))).toBe(100);
  });
});
