import type { Selectable } from 'kysely';
import type { QaRunCellsTable, QaSuiteRunsTable } from '../database-schema';
import { fromJsonText, fromNullableJsonText, type JsonObject } from '../json';

/** A run's state: `running` until every cell is done (`completed`) or it is cancelled. */
export type QaRunStatus = 'running' | 'completed' | 'cancelled';

/** A cell's state: waiting, claimed by a worker, or one of the four finished states. */
export type QaCellStatus = 'pending' | 'running' | 'passed' | 'failed' | 'error' | 'cancelled';

/** The finished states of a cell (each is counted in the run's counters once). */
export type QaFinishedCellStatus = Exclude<QaCellStatus, 'pending' | 'running'>;

/** A run's counters, kept in the same transaction as the cells they count. */
export interface QaRunCounts {
  /** Cells in the run. */
  readonly total: number;
  /** Finished cells: passed + failed + errored + cancelled. */
  readonly done: number;
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly cancelled: number;
}

/** One run of one suite version: its cases × targets, one cell each. */
export interface QaSuiteRun {
  readonly id: string;
  readonly suiteId: string;
  readonly suiteVersion: number;
  readonly status: QaRunStatus;
  /** How it was started (concurrency…); the API owns the shape. */
  readonly options: JsonObject;
  readonly createdBy: string;
  readonly createdAt: Date;
  /** When it completed or was cancelled. */
  readonly finishedAt: Date | null;
  readonly counts: QaRunCounts;
}

/** One cell of a run: one case on one target. Summary columns only (the full result is apart). */
export interface QaRunCell {
  readonly runId: string;
  readonly caseIndex: number;
  readonly targetIndex: number;
  /** The case's id in the suite version (stable across versions, so runs compare by it). */
  readonly caseId: string;
  readonly status: QaCellStatus;
  /** How many times a worker claimed it. */
  readonly attempts: number;
  /** The worker that claimed it last. */
  readonly claimedBy: string | null;
  /** Until when the claim holds; after it, another worker may claim the cell. */
  readonly leaseUntil: Date | null;
  readonly latencyMs: number | null;
  readonly costMicros: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** The kinds of the assertions that failed (empty unless failed). */
  readonly failedKinds: readonly string[];
  /** Why the cell errored or was cancelled, if it was. */
  readonly reason: string | null;
  readonly finishedAt: Date | null;
}

/** A cell with its full result (the target's answer and every assertion's outcome). */
export interface QaRunCellWithResult extends QaRunCell {
  readonly result: JsonObject | null;
}

/** Maps a `qa_suite_runs` row. */
export function toQaSuiteRun(row: Selectable<QaSuiteRunsTable>): QaSuiteRun {
  return {
    id: row.id,
    suiteId: row.suite_id,
    suiteVersion: row.suite_version,
    status: row.status,
    options: fromJsonText<JsonObject>(row.options),
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
    counts: {
      total: row.total,
      done: row.done,
      passed: row.passed,
      failed: row.failed,
      errored: row.errored,
      cancelled: row.cancelled,
    },
  };
}

/** The `qa_run_cells` columns of a summary (everything but `result`). */
export const qaRunCellSummaryColumns = [
  'run_id',
  'case_index',
  'target_index',
  'case_id',
  'status',
  'attempts',
  'claimed_by',
  'lease_until',
  'latency_ms',
  'cost_micros',
  'input_tokens',
  'output_tokens',
  'failed_kinds',
  'reason',
  'finished_at',
] as const satisfies readonly (keyof QaRunCellsTable)[];

/** A `qa_run_cells` row without `result`. */
export type QaRunCellSummaryRow = Omit<Selectable<QaRunCellsTable>, 'result'>;

/** Maps a `qa_run_cells` row (summary columns). */
export function toQaRunCell(row: QaRunCellSummaryRow): QaRunCell {
  return {
    runId: row.run_id,
    caseIndex: row.case_index,
    targetIndex: row.target_index,
    caseId: row.case_id,
    status: row.status,
    attempts: row.attempts,
    claimedBy: row.claimed_by,
    leaseUntil: row.lease_until === null ? null : new Date(row.lease_until),
    latencyMs: row.latency_ms,
    costMicros: row.cost_micros,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    failedKinds: fromJsonText<string[]>(row.failed_kinds),
    reason: row.reason,
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  };
}

/** Maps a whole `qa_run_cells` row. */
export function toQaRunCellWithResult(row: Selectable<QaRunCellsTable>): QaRunCellWithResult {
  return { ...toQaRunCell(row), result: fromNullableJsonText<JsonObject>(row.result) };
}
