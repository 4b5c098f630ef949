import {
  suiteAssertionKinds,
  targetLabel,
  type CellSummaryJson,
  type PassRateJson,
  type SuiteAssertionKind,
  type SuiteCase,
  type SuiteDefinition,
} from '@agentdesk/api-contract';
import { percentile } from './percentile';

/** Cells that have a verdict on the target: an error counts against it (its call failed). */
function judgedOnTarget(cell: CellSummaryJson): boolean {
  return cell.status === 'passed' || cell.status === 'failed' || cell.status === 'error';
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((total, value) => total + value, 0);
}

function rate(passed: number, judged: number): number | null {
  return judged === 0 ? null : passed / judged;
}

function targetPassRate(key: string, cells: readonly CellSummaryJson[]): PassRateJson {
  const judged = cells.filter(judgedOnTarget);
  const passed = judged.filter((cell) => cell.status === 'passed').length;
  const latencies = judged.flatMap((cell) =>
    cell.status !== 'error' && cell.latencyMs !== null ? [cell.latencyMs] : [],
  );
  return {
    key,
    passed,
    judged: judged.length,
    rate: rate(passed, judged.length),
    costMicros: sumOrNull(cells.map((cell) => cell.costMicros)),
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
  };
}

/** The kinds a case checks: `schema` always, then its assertions'. */
function kindsOf(testCase: SuiteCase | undefined): Set<SuiteAssertionKind> {
  return new Set<SuiteAssertionKind>([
    'schema',
    ...(testCase?.assertions.map((assertion) => assertion.kind) ?? []),
  ]);
}

/**
 * A run's pass rates: per target (by label, in the suite's order; an errored call counts as not
 * passed), and per assertion kind (over the cells whose model answered and whose case has that
 * kind: passed unless the kind is among the cell's failed kinds). Cost and latency are per target;
 * per kind they are null.
 */
export function summarizeRun(
  definition: SuiteDefinition,
  cells: readonly CellSummaryJson[],
): { byTarget: PassRateJson[]; byAssertionKind: PassRateJson[] } {
  const byTarget = definition.targets.map((target, targetIndex) =>
    targetPassRate(
      targetLabel(target),
      cells.filter((cell) => cell.targetIndex === targetIndex),
    ),
  );
  const casesById = new Map(definition.cases.map((testCase) => [testCase.id, testCase]));
  const answered = cells.filter((cell) => cell.status === 'passed' || cell.status === 'failed');
  const kindsPerCell = answered.map((cell) => ({
    cell,
    kinds: kindsOf(
      definition.cases[cell.caseIndex]?.id === cell.caseId
        ? definition.cases[cell.caseIndex]
        : casesById.get(cell.caseId),
    ),
  }));
  const byAssertionKind = suiteAssertionKinds.flatMap((kind): PassRateJson[] => {
    const present = definition.cases.some((testCase) => kindsOf(testCase).has(kind));
    if (!present) return [];
    const judged = kindsPerCell.filter(({ kinds }) => kinds.has(kind));
    const passed = judged.filter(({ cell }) => !cell.failedKinds.includes(kind)).length;
    return [
      {
        key: kind,
        passed,
        judged: judged.length,
        rate: rate(passed, judged.length),
        costMicros: null,
        latencyP50Ms: null,
        latencyP95Ms: null,
      },
    ];
  });
  return { byTarget, byAssertionKind };
}
