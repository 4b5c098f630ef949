import type { CellJson, CellSummaryJson, SuiteRunJson } from '@agentdesk/api-contract';
import type { JUnitCase, JUnitSuite } from './junit-xml';

/** A run as JUnit suites: one per target (by label), one test case per case, in the suite's order. */
export function junitSuitesOf(run: SuiteRunJson, failedCells: ReadonlyMap<string, CellJson>): JUnitSuite[] {
  const cellsByKey = new Map(run.cells.map((cell) => [cellKey(cell.caseId, cell.targetIndex), cell]));
  return run.targets.map((target, targetIndex) => {
    const label = target.label ?? target.model;
    return {
      name: `${run.suiteName} — ${label}`,
      cases: run.cases.map((suiteCase): JUnitCase => {
        const key = cellKey(suiteCase.id, targetIndex);
        return {
          name: suiteCase.id,
          className: `${run.suiteName}.${label}`,
          ...outcomeOf(cellsByKey.get(key), failedCells.get(key)),
        };
      }),
    };
  });
}

/** The key of a cell in maps: case id and target index. */
export function cellKey(caseId: string, targetIndex: number): string {
  return `${targetIndex}\u0000${caseId}`;
}

function outcomeOf(
  cell: CellSummaryJson | undefined,
  full: CellJson | undefined,
): Pick<JUnitCase, 'timeSeconds' | 'outcome'> {
  if (cell === undefined)
    return { timeSeconds: null, outcome: { kind: 'skipped', message: 'not in this run' } };
  const timeSeconds = cell.latencyMs === null ? null : cell.latencyMs / 1000;
  switch (cell.status) {
    case 'passed':
      return { timeSeconds, outcome: { kind: 'passed' } };
    case 'failed': {
      const failed = (full?.assertions ?? []).filter((outcome) => outcome.passed !== true);
      const details =
        failed.length > 0
          ? failed.map(
              (outcome) =>
                `${outcome.label}: ${outcome.message ?? (outcome.passed === null ? 'could not be judged' : 'failed')}`,
            )
          : [`failed: ${cell.failedKinds.join(', ')}`];
      return {
        timeSeconds,
        outcome: {
          kind: 'failure',
          message: `failed: ${cell.failedKinds.join(', ') || 'an assertion'}`,
          details: details.join('\n'),
        },
      };
    }
    case 'error': {
      const message = cell.reason ?? 'the model call failed';
      return { timeSeconds, outcome: { kind: 'error', message, details: message } };
    }
    case 'cancelled':
    case 'pending':
    case 'running':
      return { timeSeconds, outcome: { kind: 'skipped', message: `not judged (${cell.status})` } };
  }
}
