import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { CellExecutor } from './cell-executor';
import type { CellQueue } from './cell-queue';
import type { CellRecovery } from './cell-recovery';

/**
 * Runs QA suite runs' cells on this replica: a queue (pg-boss on PostgreSQL, shared by every
 * replica; in process on SQLite), the executor that claims and runs each cell, and the recovery
 * that resumes runs at start and takes over the cells of replicas that died. Started with the app,
 * stopped with it: cells in flight at the stop are released for the next worker.
 */
export class SuiteRunEngine implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private started = false;

  constructor(
    private readonly queue: CellQueue,
    private readonly executor: CellExecutor,
    private readonly recovery: CellRecovery,
    private readonly logger: Pick<Logger, 'info'>,
    /** Which queue this is, for the start-up log line. */
    private readonly queueKind: 'pg-boss' | 'in-process',
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.start(this.executor.execute);
    await this.recovery.start();
    this.started = true;
    this.logger.info({ queue: this.queueKind }, 'QA suite run engine started');
  }

  /** Queues cells of a run (a new run: all of them). */
  async enqueue(runId: string, cells: readonly { caseIndex: number; targetIndex: number }[]): Promise<void> {
    await this.queue.enqueue(
      cells.map((cell) => ({ runId, caseIndex: cell.caseIndex, targetIndex: cell.targetIndex })),
    );
  }

  /**
   * Stops this replica's cells of a run the caller just cancelled in the database (they finish as
   * cancelled); other replicas notice at their next lease renewal.
   */
  cancelLocal(runId: string): void {
    this.executor.stopRun(runId, 'cancelled');
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.recovery.stop();
    this.executor.shutDown();
    await this.queue.stop();
  }
}
