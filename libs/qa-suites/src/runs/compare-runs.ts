import {
  caseChanges,
  targetLabel,
  type CaseChange,
  type CellStatus,
  type CellSummaryJson,
  type RunComparisonJson,
  type SuiteDefinition,
} from '@agentdesk/api-contract';
import { summarizeRun } from './summarize-run';

/** One run as a comparison needs it: the definition it ran (for target labels) and its cells. */
export interface ComparedRun {
  definition: SuiteDefinition;
  cells: readonly CellSummaryJson[];
}

export type RunComparison = Omit<RunComparisonJson, 'runId' | 'againstRunId'>;

const JUDGED: ReadonlySet<CellStatus> = new Set(['passed', 'failed', 'error']);

/**
 * How a cell changed between two runs. Only finished verdicts compare: a cell pending, running or
 * cancelled on either side is `not-judged`. An error counts as not passed.
 */
export function classifyChange(before: CellStatus | null, after: CellStatus | null): CaseChange {
  if (before === null) return 'new';
  if (after === null) return 'removed';
  if (!JUDGED.has(before) || !JUDGED.has(after)) return 'not-judged';
  const passedBefore = before === 'passed';
  const passedAfter = after === 'passed';
  if (passedBefore && !passedAfter) return 'regression';
  if (!passedBefore && passedAfter) return 'fix';
  return passedAfter ? 'unchanged-pass' : 'unchanged-fail';
}

/** A cell's key across versions: its case id and its target's label (a target's index may move). */
function cellKey(caseId: string, label: string): string {
  return JSON.stringify([caseId, label]);
}

function labelledCells(run: ComparedRun): { caseId: string; target: string; status: CellStatus }[] {
  return run.cells.flatMap((cell) => {
    const target = run.definition.targets[cell.targetIndex];
    return target ? [{ caseId: cell.caseId, target: targetLabel(target), status: cell.status }] : [];
  });
}

/**
 * Compares a run with an earlier one of the same suite, cell by cell (matched by case id and
 * target label): regressions (passed before, not after), fixes (the reverse), unchanged cells,
 * new cells (a case or target added since) and removed ones. Cells come in the later run's order,
 * then the removed ones in the earlier run's order; pass rates per target label on both sides.
 */
export function compareRuns(before: ComparedRun, after: ComparedRun): RunComparison {
  const beforeCells = labelledCells(before);
  const afterCells = labelledCells(after);
  const beforeByKey = new Map(beforeCells.map((cell) => [cellKey(cell.caseId, cell.target), cell]));
  const afterKeys = new Set(afterCells.map((cell) => cellKey(cell.caseId, cell.target)));

  const cells: RunComparison['cells'] = afterCells.map((cell) => {
    const previous = beforeByKey.get(cellKey(cell.caseId, cell.target))?.status ?? null;
    return {
      caseId: cell.caseId,
      target: cell.target,
      change: classifyChange(previous, cell.status),
      before: previous,
      after: cell.status,
    };
  });
  for (const cell of beforeCells) {
    if (!afterKeys.has(cellKey(cell.caseId, cell.target))) {
      cells.push({
        caseId: cell.caseId,
        target: cell.target,
        change: 'removed',
        before: cell.status,
        after: null,
      });
    }
  }

  const counts = Object.fromEntries(caseChanges.map((change) => [change, 0])) as Record<CaseChange, number>;
  for (const cell of cells) counts[cell.change] += 1;

  const beforeRates = new Map(
    summarizeRun(before.definition, before.cells).byTarget.map((rate) => [rate.key, rate.rate]),
  );
  const afterRates = new Map(
    summarizeRun(after.definition, after.cells).byTarget.map((rate) => [rate.key, rate.rate]),
  );
  const labels = [...new Set([...afterRates.keys(), ...beforeRates.keys()])];
  const byTarget = labels.map((target) => ({
    target,
    before: beforeRates.get(target) ?? null,
    after: afterRates.get(target) ?? null,
  }));

  return { counts, cells, byTarget };
}
