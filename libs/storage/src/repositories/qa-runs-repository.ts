import { sql, type Transaction } from 'kysely';
import type { Database } from '../database-schema';
import { newId } from '../ids';
import { toJsonText, toNullableJsonText, type JsonObject } from '../json';
import {
  qaRunCellSummaryColumns,
  toQaRunCell,
  toQaRunCellWithResult,
  toQaSuiteRun,
  type QaFinishedCellStatus,
  type QaRunCell,
  type QaRunCellWithResult,
  type QaSuiteRun,
} from '../models/qa-run';
import { newestFirstPage } from '../newest-first-page';
import type { Page, PageRequest } from '../pagination';
import { isForeignKeyViolation, notFound } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** One cell of a new run: which case (by index and id) on which target. */
export interface NewQaRunCell {
  readonly caseIndex: number;
  readonly targetIndex: number;
  readonly caseId: string;
}

/** A new run of one suite version. */
export interface NewQaSuiteRun {
  readonly suiteId: string;
  readonly suiteVersion: number;
  readonly createdBy: string;
  /** How it was started (concurrency…), kept verbatim. */
  readonly options: JsonObject;
  readonly cells: readonly NewQaRunCell[];
}

/** What a worker found for the cell it held. */
export interface QaCellOutcome {
  readonly status: QaFinishedCellStatus;
  readonly latencyMs: number | null;
  readonly costMicros: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** Kinds of the assertions that failed. */
  readonly failedKinds: readonly string[];
  readonly reason: string | null;
  /** The full answer and assertion outcomes (the API owns the shape). */
  readonly result: JsonObject | null;
}

/** What became of a worker's claim when it tried to extend it. */
export type QaLeaseState = 'held' | 'lost' | 'cancelled';

/**
 * Cells inserted per statement: 7 parameters a row keeps a chunk far below SQLite's 32,766 and
 * PostgreSQL's 65,535 bound parameters, whatever the suite's size.
 */
const CELL_INSERT_CHUNK = 500;

/** The reason written on the cells a cancellation finishes. */
export const CANCELLED_CELL_REASON = 'the run was cancelled';
/** Why a cell of a cancelled run whose worker stopped was finished by the sweep. */
export const STRANDED_CELL_REASON = 'the run was cancelled and the worker running this cell stopped';

/** Which run counter a finished cell adds to. */
const counterOf = {
  passed: 'passed',
  failed: 'failed',
  error: 'errored',
  cancelled: 'cancelled',
} as const satisfies Record<QaFinishedCellStatus, string>;

type RunCounter = (typeof counterOf)[QaFinishedCellStatus];

/**
 * QA suite runs and their cells (migration 0018), written by workers on any replica.
 *
 * Every change of a cell's state is one conditional UPDATE whose WHERE states what must still be
 * true (the cell is pending, or ours, or its lease has passed), so concurrent workers never both
 * win; the number of rows it changed says who did. A cell becomes finished at most once, and in the
 * same transaction the run's counters are bumped, so `counts` always equal the cells' states.
 *
 * Lock order on PostgreSQL (deadlock-free): the transactions that count (finish, give up, cancel)
 * lock the run's row first, then cells; a claim or a lease extension is one statement on one cell.
 * SQLite has one writer at a time: its transactions never interleave.
 */
export class QaRunsRepository {
  constructor(private readonly context: RepositoryContext) {}

  /**
   * Creates a run with every cell pending, in one transaction. `NotFound` (qa-suite-version) when
   * the suite has no such version. A run of no cells is completed at once.
   */
  async create(input: NewQaSuiteRun): Promise<QaSuiteRun> {
    const now = this.context.clock();
    const id = newId(now);
    const total = input.cells.length;
    try {
      return await this.context.db.transaction().execute(async (transaction) => {
        const run = await transaction
          .insertInto('qa_suite_runs')
          .values({
            id,
            suite_id: input.suiteId,
            suite_version: input.suiteVersion,
            status: total === 0 ? 'completed' : 'running',
            options: toJsonText(input.options),
            created_by: input.createdBy,
            created_at: now,
            finished_at: total === 0 ? now : null,
            total,
            done: 0,
            passed: 0,
            failed: 0,
            errored: 0,
            cancelled: 0,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        for (let start = 0; start < total; start += CELL_INSERT_CHUNK) {
          await transaction
            .insertInto('qa_run_cells')
            .values(
              input.cells.slice(start, start + CELL_INSERT_CHUNK).map((cell) => ({
                run_id: id,
                case_index: cell.caseIndex,
                target_index: cell.targetIndex,
                case_id: cell.caseId,
                status: 'pending' as const,
                attempts: 0,
                failed_kinds: '[]',
              })),
            )
            .execute();
        }
        return toQaSuiteRun(run);
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound('qa-suite-version');
      throw error;
    }
  }

  /** One run; `NotFound` when there is none with this id. */
  async get(id: string): Promise<QaSuiteRun> {
    const row = await this.context.db
      .selectFrom('qa_suite_runs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('qa-run');
    return toQaSuiteRun(row);
  }

  /** A suite's runs (of every version), newest first. */
  async listForSuite(suiteId: string, page: PageRequest = {}): Promise<Page<QaSuiteRun>> {
    const query = this.context.db.selectFrom('qa_suite_runs').selectAll().where('suite_id', '=', suiteId);
    return newestFirstPage(query, page, toQaSuiteRun);
  }

  /**
   * The newest run of each of these suites, in one query (a suite list shows each suite's last
   * run): each suite's top row by the (suite_id, created_at, id) index. Suites never run are absent.
   */
  async latestOfSuites(suiteIds: readonly string[]): Promise<Map<string, QaSuiteRun>> {
    if (suiteIds.length === 0) return new Map();
    const rows = await this.context.db
      .selectFrom('qa_suite_runs as run')
      .selectAll('run')
      .where('run.suite_id', 'in', [...new Set(suiteIds)])
      .where('run.id', '=', (eb) =>
        eb
          .selectFrom('qa_suite_runs as newer')
          .select('newer.id')
          .whereRef('newer.suite_id', '=', 'run.suite_id')
          .orderBy('newer.created_at', 'desc')
          .orderBy('newer.id', 'desc')
          .limit(1),
      )
      .execute();
    return new Map(rows.map((row) => [row.suite_id, toQaSuiteRun(row)]));
  }

  /** The newest finished (completed or cancelled) run of the suite started before `runId`. */
  async latestFinishedBefore(suiteId: string, runId: string): Promise<QaSuiteRun | undefined> {
    const row = await this.context.db
      .selectFrom('qa_suite_runs')
      .selectAll()
      .where('suite_id', '=', suiteId)
      .where('status', 'in', ['completed', 'cancelled'])
      .where('id', '<', runId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : toQaSuiteRun(row);
  }

  /** Every run still running (to resume after a restart), oldest first. */
  async running(): Promise<QaSuiteRun[]> {
    const rows = await this.context.db
      .selectFrom('qa_suite_runs')
      .selectAll()
      .where('status', '=', 'running')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toQaSuiteRun);
  }

  /** A run's cells without their results, by case then target. */
  async cells(runId: string): Promise<QaRunCell[]> {
    const rows = await this.cellSummaries(runId).orderBy('case_index').orderBy('target_index').execute();
    return rows.map(toQaRunCell);
  }

  /** The run's cells finished at or after `sinceMs` (epoch ms), without results, in finishing order. */
  async cellsFinishedSince(runId: string, sinceMs: number): Promise<QaRunCell[]> {
    const rows = await this.cellSummaries(runId)
      .where('finished_at', '>=', sinceMs)
      .orderBy('finished_at')
      .orderBy('case_index')
      .orderBy('target_index')
      .execute();
    return rows.map(toQaRunCell);
  }

  /** One cell with its result; `NotFound` (qa-run-cell) when the run has no such cell. */
  async cell(runId: string, caseIndex: number, targetIndex: number): Promise<QaRunCellWithResult> {
    const row = await this.cellsWithResults(runId, targetIndex)
      .where('case_index', '=', caseIndex)
      .executeTakeFirst();
    if (row === undefined) throw notFound('qa-run-cell');
    return toQaRunCellWithResult(row);
  }

  /** The cell of the case with this id on this target, with its result, if the run has it. */
  async cellByCaseId(
    runId: string,
    caseId: string,
    targetIndex: number,
  ): Promise<QaRunCellWithResult | undefined> {
    const row = await this.cellsWithResults(runId, targetIndex)
      .where('case_id', '=', caseId)
      .executeTakeFirst();
    return row === undefined ? undefined : toQaRunCellWithResult(row);
  }

  /** The run's pending and running cells, by case then target (what a restart re-enqueues). */
  async unfinishedCells(runId: string): Promise<QaRunCell[]> {
    const rows = await this.cellSummaries(runId)
      .where('status', 'in', ['pending', 'running'])
      .orderBy('case_index')
      .orderBy('target_index')
      .execute();
    return rows.map(toQaRunCell);
  }

  /**
   * Claims a cell for `workerId` until now + `leaseMs`: a pending cell, or a running one whose
   * lease has passed (its worker stopped). One statement, so of concurrent claimers exactly one
   * wins. Undefined when the cell is not claimable: held by a live lease, finished, missing, or its
   * run is no longer running.
   */
  async claimCell(
    runId: string,
    caseIndex: number,
    targetIndex: number,
    workerId: string,
    leaseMs: number,
  ): Promise<QaRunCell | undefined> {
    const now = this.context.clock();
    const row = await this.context.db
      .updateTable('qa_run_cells')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        claimed_by: workerId,
        lease_until: now + leaseMs,
      }))
      .where('run_id', '=', runId)
      .where('case_index', '=', caseIndex)
      .where('target_index', '=', targetIndex)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
        ]),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('qa_suite_runs')
            .select('qa_suite_runs.id')
            .where('qa_suite_runs.id', '=', runId)
            .where('qa_suite_runs.status', '=', 'running'),
        ),
      )
      .returning(qaRunCellSummaryColumns)
      .executeTakeFirst();
    return row === undefined ? undefined : toQaRunCell(row);
  }

  /**
   * Moves the lease of a cell `workerId` holds to now + `leaseMs`. `cancelled` when the run was
   * cancelled (the worker should stop and finish the cell as cancelled); `lost` when another worker
   * claimed the cell since, or it was given up.
   */
  async extendLease(
    runId: string,
    caseIndex: number,
    targetIndex: number,
    workerId: string,
    leaseMs: number,
  ): Promise<QaLeaseState> {
    const run = await this.context.db
      .selectFrom('qa_suite_runs')
      .select('status')
      .where('id', '=', runId)
      .executeTakeFirst();
    if (run === undefined) return 'lost';
    if (run.status === 'cancelled') return 'cancelled';
    const result = await this.context.db
      .updateTable('qa_run_cells')
      .set({ lease_until: this.context.clock() + leaseMs })
      .where('run_id', '=', runId)
      .where('case_index', '=', caseIndex)
      .where('target_index', '=', targetIndex)
      .where('status', '=', 'running')
      .where('claimed_by', '=', workerId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? 'held' : 'lost';
  }

  /**
   * Finishes a cell `workerId` still holds, and counts it, in one transaction; the run completes
   * when its last cell is counted. False (nothing written) when the cell is no longer this
   * worker's: another claimed it after the lease passed, or it was given up — so a result is never
   * counted twice. A run cancelled meanwhile still counts the cell (its counters stay exact).
   */
  async finishCell(
    runId: string,
    caseIndex: number,
    targetIndex: number,
    workerId: string,
    outcome: QaCellOutcome,
  ): Promise<boolean> {
    return this.context.db.transaction().execute(async (transaction) => {
      await this.lockRun(transaction, runId);
      const now = this.context.clock();
      const result = await transaction
        .updateTable('qa_run_cells')
        .set({
          status: outcome.status,
          latency_ms: outcome.latencyMs,
          cost_micros: outcome.costMicros,
          input_tokens: outcome.inputTokens,
          output_tokens: outcome.outputTokens,
          failed_kinds: toJsonText(outcome.failedKinds),
          reason: outcome.reason,
          result: toNullableJsonText(outcome.result),
          lease_until: null,
          finished_at: now,
        })
        .where('run_id', '=', runId)
        .where('case_index', '=', caseIndex)
        .where('target_index', '=', targetIndex)
        .where('status', '=', 'running')
        .where('claimed_by', '=', workerId)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await countFinished(transaction, runId, counterOf[outcome.status], 1, now);
      return true;
    });
  }

  /**
   * Finishes a pending or running cell as `error` with `reason`, whoever holds it, and counts it
   * (used when its attempts are exhausted). False when it had already finished.
   */
  async giveUpCell(runId: string, caseIndex: number, targetIndex: number, reason: string): Promise<boolean> {
    return this.context.db.transaction().execute(async (transaction) => {
      await this.lockRun(transaction, runId);
      const now = this.context.clock();
      const result = await transaction
        .updateTable('qa_run_cells')
        .set({ status: 'error', reason, lease_until: null, finished_at: now })
        .where('run_id', '=', runId)
        .where('case_index', '=', caseIndex)
        .where('target_index', '=', targetIndex)
        .where('status', 'in', ['pending', 'running'])
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await countFinished(transaction, runId, 'errored', 1, now);
      return true;
    });
  }

  /**
   * Cancels a running run: it is `cancelled` from now, its pending cells are finished as cancelled
   * and counted; running cells are counted when their workers finish them. A run already finished
   * is returned as it is. `NotFound` when there is no such run.
   */
  async cancel(runId: string): Promise<QaSuiteRun> {
    return this.context.db.transaction().execute(async (transaction) => {
      await this.lockRun(transaction, runId);
      const now = this.context.clock();
      const run = await transaction
        .updateTable('qa_suite_runs')
        .set({ status: 'cancelled', finished_at: now })
        .where('id', '=', runId)
        .where('status', '=', 'running')
        .returning('id')
        .executeTakeFirst();
      if (run !== undefined) {
        const cancelled = await transaction
          .updateTable('qa_run_cells')
          .set({ status: 'cancelled', reason: CANCELLED_CELL_REASON, finished_at: now })
          .where('run_id', '=', runId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        await countFinished(transaction, runId, 'cancelled', Number(cancelled.numUpdatedRows), now);
      }
      const row = await transaction
        .selectFrom('qa_suite_runs')
        .selectAll()
        .where('id', '=', runId)
        .executeTakeFirst();
      if (row === undefined) throw notFound('qa-run');
      return toQaSuiteRun(row);
    });
  }

  /**
   * Finishes as cancelled, and counts, the cells of cancelled runs whose worker stopped while
   * holding them (lease passed): nobody else may claim a cell of a cancelled run, so without this
   * such a run would never reach done = total. Returns how many cells it finished.
   */
  async cancelStrandedCells(): Promise<number> {
    const runs = await this.context.db
      .selectFrom('qa_suite_runs')
      .select('id')
      .where('status', '=', 'cancelled')
      .whereRef('done', '<', 'total')
      .execute();
    let finished = 0;
    for (const { id } of runs)
      finished += await this.context.db.transaction().execute(async (transaction) => {
        await this.lockRun(transaction, id);
        const now = this.context.clock();
        const result = await transaction
          .updateTable('qa_run_cells')
          .set({ status: 'cancelled', reason: STRANDED_CELL_REASON, lease_until: null, finished_at: now })
          .where('run_id', '=', id)
          .where('status', '=', 'running')
          .where('lease_until', '<', now)
          .executeTakeFirst();
        const count = Number(result.numUpdatedRows);
        await countFinished(transaction, id, 'cancelled', count, now);
        return count;
      });
    return finished;
  }

  /** The run's cells without their results (what lists and progress need), to narrow and order. */
  private cellSummaries(runId: string) {
    return this.context.db
      .selectFrom('qa_run_cells')
      .select(qaRunCellSummaryColumns)
      .where('run_id', '=', runId);
  }

  /** The run's cells on one target with their results, to narrow to one case. */
  private cellsWithResults(runId: string, targetIndex: number) {
    return this.context.db
      .selectFrom('qa_run_cells')
      .selectAll()
      .where('run_id', '=', runId)
      .where('target_index', '=', targetIndex);
  }

  /**
   * PostgreSQL: takes the run's row lock first, so every counting transaction locks in the same
   * order (run, then cells) and none can deadlock with another. SQLite serializes writers already.
   */
  private async lockRun(transaction: Transaction<Database>, runId: string): Promise<void> {
    if (this.context.dialect !== 'postgres') return;
    await transaction.selectFrom('qa_suite_runs').select('id').where('id', '=', runId).forUpdate().execute();
  }
}

/**
 * Adds `count` finished cells to `counter` and `done`; the run completes (status and finish time)
 * when `done` reaches `total` while it is running. One statement, so the check sees its own bump.
 */
async function countFinished(
  transaction: Transaction<Database>,
  runId: string,
  counter: RunCounter,
  count: number,
  now: number,
): Promise<void> {
  if (count === 0) return;
  const completes = sql<boolean>`status = 'running' and done + ${count} = total`;
  await transaction
    .updateTable('qa_suite_runs')
    .set((eb) => ({
      done: eb('done', '+', count),
      [counter]: eb(counter, '+', count),
      status: sql<
        'running' | 'completed' | 'cancelled'
      >`case when ${completes} then 'completed' else status end`,
      finished_at: sql<number | null>`case when ${completes} then ${now} else finished_at end`,
    }))
    .where('id', '=', runId)
    .execute();
}
