import type { CaseChange, RunComparisonJson } from '@agentdesk/api-contract';

/** The changes that count as "a change" for the "only changes" filter. */
const changesShown: ReadonlySet<CaseChange> = new Set(['regression', 'fix', 'new', 'removed']);

export function isChange(change: CaseChange | undefined): boolean {
  return change !== undefined && changesShown.has(change);
}

function cellKey(caseId: string, target: string): string {
  return `${caseId}\u0000${target}`;
}

/** A comparison read cell by cell: the change of a case on a target (matched by target label). */
export interface ComparisonIndex {
  changeOf(caseId: string, target: string): CaseChange | undefined;
  /** Whether any target of the case changed: the rows "only changes" keeps. */
  caseChanged(caseId: string): boolean;
  /** Cells of the earlier run whose case this run no longer has. */
  readonly removed: readonly { caseId: string; target: string }[];
}

export function indexComparison(comparison: RunComparisonJson, caseIds: readonly string[]): ComparisonIndex {
  const changes = new Map<string, CaseChange>();
  const changedCases = new Set<string>();
  for (const cell of comparison.cells) {
    changes.set(cellKey(cell.caseId, cell.target), cell.change);
    if (isChange(cell.change)) changedCases.add(cell.caseId);
  }
  const present = new Set(caseIds);
  return {
    changeOf: (caseId, target) => changes.get(cellKey(caseId, target)),
    caseChanged: (caseId) => changedCases.has(caseId),
    removed: comparison.cells
      .filter((cell) => cell.change === 'removed' && !present.has(cell.caseId))
      .map((cell) => ({ caseId: cell.caseId, target: cell.target })),
  };
}

/** The comparison's counts as a sentence's parts, in the order a reader looks for them. */
export function comparisonCountsText(counts: RunComparisonJson['counts']): string[] {
  const count = (change: CaseChange) => counts[change] ?? 0;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    plural(count('regression'), 'regression', 'regressions'),
    plural(count('fix'), 'fix', 'fixes'),
    `${count('new')} new`,
    `${count('removed')} removed`,
    `${count('unchanged-pass') + count('unchanged-fail')} unchanged`,
  ];
}
