import type {
  CaseChange,
  CellStatus,
  CellSummaryJson,
  RunCountsJson,
  SuiteRunJson,
} from '@agentdesk/api-contract';

/**
 * What the matrix shows of a cell: its outcome and the kinds of assertion that failed. Only this
 * travels to the browser with the page (not latency, cost, tokens, reason): a 1,000-cell run's page
 * data stays small, and so does the work of reading it before the page answers.
 */
export type MatrixCell = Pick<CellSummaryJson, 'status' | 'failedKinds'>;

/** One row of a run's matrix: a case, and its cell on each target (undefined: the run has none there). */
export interface MatrixRow {
  readonly caseIndex: number;
  readonly caseId: string;
  readonly description: string | null;
  readonly cells: readonly (MatrixCell | undefined)[];
}

/** What the matrix shows of a run: its rows, and the counts the progress bar reads. */
export interface MatrixState {
  readonly rows: readonly MatrixRow[];
  readonly counts: RunCountsJson;
}

/** A cell as the matrix keeps it. */
export function matrixCellOf(cell: MatrixCell): MatrixCell {
  return { status: cell.status, failedKinds: cell.failedKinds };
}

/** The matrix of a run as the API answered it: rows in case order, columns in target order. */
export function matrixOf(run: Pick<SuiteRunJson, 'cases' | 'targets' | 'cells' | 'counts'>): MatrixState {
  const grid = run.cases.map(() => new Array<MatrixCell | undefined>(run.targets.length).fill(undefined));
  for (const cell of run.cells) {
    const row = grid[cell.caseIndex];
    if (row !== undefined && cell.targetIndex < row.length) row[cell.targetIndex] = matrixCellOf(cell);
  }
  return {
    rows: run.cases.map((testCase, caseIndex) => ({
      caseIndex,
      caseId: testCase.id,
      description: testCase.description,
      cells: grid[caseIndex] ?? [],
    })),
    counts: run.counts,
  };
}

/**
 * A batch of finished cells (an SSE `cells` event) applied in place: only the rows it touches are
 * new objects, so the matrix re-renders those rows and no other (its rows are memoized by identity).
 * A cell the matrix has no slot for is ignored.
 */
export function applyCells(
  state: MatrixState,
  cells: readonly CellSummaryJson[],
  counts: RunCountsJson,
): MatrixState {
  const changed = new Map<number, (MatrixCell | undefined)[]>();
  for (const cell of cells) {
    const row = state.rows[cell.caseIndex];
    if (row === undefined || cell.targetIndex >= row.cells.length) continue;
    let copy = changed.get(cell.caseIndex);
    if (copy === undefined) {
      copy = [...row.cells];
      changed.set(cell.caseIndex, copy);
    }
    copy[cell.targetIndex] = matrixCellOf(cell);
  }
  if (changed.size === 0) return { rows: state.rows, counts };
  const rows = state.rows.map((row) => {
    const copy = changed.get(row.caseIndex);
    return copy === undefined ? row : { ...row, cells: copy };
  });
  return { rows, counts };
}

/** A cell's outcome as words, never colour alone: "failed (schema, equals)". */
export function cellLabel(cell: MatrixCell | undefined): string {
  if (cell === undefined) return 'not in this run';
  if (cell.status === 'failed' && cell.failedKinds.length > 0)
    return `failed (${cell.failedKinds.join(', ')})`;
  return cell.status;
}

/** The class a cell's colour comes from. */
export function cellTone(status: CellStatus | undefined): string {
  return `cell cell-${status ?? 'absent'}`;
}

/** What a comparison says of a cell, short, for the matrix; null when nothing changed. */
export function changeMark(change: CaseChange | undefined): string | null {
  switch (change) {
    case 'regression':
      return '▼ regression';
    case 'fix':
      return '▲ fix';
    case 'new':
      return '+ new';
    case 'removed':
      return '− removed';
    case 'not-judged':
    case 'unchanged-pass':
    case 'unchanged-fail':
    case undefined:
      return null;
  }
}

/** How far a run is, 0–100, for the progress bar (a run of no cells is done). */
export function progressPercent(counts: RunCountsJson): number {
  if (counts.total === 0) return 100;
  return Math.round((counts.done / counts.total) * 100);
}

/**
 * The address of a cell's detail (or, without a target, of the case across targets) on the run
 * page `base` (the page's own address with its comparison), opened at the detail panel.
 */
export function cellHref(base: string, caseId: string, targetIndex?: number): string {
  const separator = base.includes('?') ? '&' : '?';
  const target = targetIndex === undefined ? '' : `&target=${targetIndex}`;
  return `${base}${separator}case=${encodeURIComponent(caseId)}${target}#cell-detail`;
}
