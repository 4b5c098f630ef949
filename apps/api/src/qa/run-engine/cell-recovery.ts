import type { QaRunCell, Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import { GIVEN_UP_REASON, MAX_CELL_ATTEMPTS } from './cell-executor';
import type { CellJobRequest, CellQueue } from './cell-queue';

/** After a lease passes, how long before its cell is handed out again (clocks of replicas differ a little). */
const LEASE_GRACE_MS = 250;

/**
 * Puts back into the queue the cells no worker will finish: at start, every unfinished cell of
 * every running run (pending ones lost their jobs with the previous process, held ones once their
 * lease passes); then, every half lease, the cells whose lease passed because their replica died.
 * A cell whose workers stopped `MAX_CELL_ATTEMPTS` times is given up with the reason. Enqueueing a
 * cell twice is harmless (claiming decides), but each expired claim is enqueued once per replica —
 * and again if it is still unclaimed a lease later (the job put back was lost with its worker).
 */
export class CellRecovery {
  /** Cells this replica put back: the attempt count they had then, and when. */
  private requeued = new Map<string, Requeued>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly runs: Pick<
      Repositories['qaRuns'],
      'running' | 'unfinishedCells' | 'giveUpCell' | 'cancelStrandedCells'
    >,
    private readonly queue: Pick<CellQueue, 'enqueue'>,
    private readonly leaseMs: number,
    private readonly logger: Pick<Logger, 'info' | 'warn'>,
  ) {}

  /** The start-up pass (awaited), then the periodic sweep. */
  async start(): Promise<void> {
    await this.sweep({ atStart: true });
    this.timer = setInterval(
      () => {
        if (this.sweeping !== undefined) return;
        this.sweeping = this.sweep({ atStart: false })
          .catch((error: unknown) =>
            this.logger.warn({ err: error }, 'QA suite cell sweep failed; trying again'),
          )
          .finally(() => {
            this.sweeping = undefined;
          });
      },
      Math.max(1, Math.floor(this.leaseMs / 2)),
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One pass over every running run. */
  async sweep({ atStart }: { atStart: boolean }): Promise<void> {
    const now = Date.now();
    const seen = new Map<string, Requeued>();
    let enqueued = 0;
    let givenUp = 0;
    for (const run of await this.runs.running()) {
      const jobs: CellJobRequest[] = [];
      for (const cell of await this.runs.unfinishedCells(run.id)) {
        const key = `${cell.runId}/${cell.caseIndex}/${cell.targetIndex}`;
        const job = { runId: cell.runId, caseIndex: cell.caseIndex, targetIndex: cell.targetIndex };
        if (cell.status === 'pending') {
          if (atStart) jobs.push(job);
          continue;
        }
        const leaseUntil = cell.leaseUntil?.getTime() ?? 0;
        if (leaseUntil > now) {
          if (atStart) {
            jobs.push({ ...job, notBefore: leaseUntil + LEASE_GRACE_MS });
            seen.set(key, { attempts: cell.attempts, at: now });
          } else if (this.requeued.has(key)) seen.set(key, this.requeued.get(key)!);
          continue;
        }
        if (isExhausted(cell)) {
          if (await this.runs.giveUpCell(cell.runId, cell.caseIndex, cell.targetIndex, GIVEN_UP_REASON))
            givenUp += 1;
          continue;
        }
        const earlier = this.requeued.get(key);
        if (earlier !== undefined && earlier.attempts === cell.attempts && now - earlier.at < this.leaseMs) {
          seen.set(key, earlier);
          continue;
        }
        seen.set(key, { attempts: cell.attempts, at: now });
        jobs.push(job);
      }
      if (jobs.length > 0) await this.queue.enqueue(jobs);
      enqueued += jobs.length;
    }
    this.requeued = seen;
    // A cancelled run's cells are never claimed again: those a dead worker held are finished here.
    const stranded = await this.runs.cancelStrandedCells();
    if (stranded > 0)
      this.logger.info(
        { cancelledCells: stranded },
        'QA suite cells of cancelled runs whose worker stopped finished as cancelled',
      );
    if (atStart ? enqueued + givenUp > 0 : givenUp > 0 || enqueued > 0)
      this.logger.info(
        { enqueuedCells: enqueued, givenUpCells: givenUp },
        atStart
          ? 'QA suite runs resumed: unfinished cells enqueued'
          : 'QA suite cells whose worker stopped enqueued again',
      );
  }
}

interface Requeued {
  readonly attempts: number;
  /** Epoch ms of the sweep that enqueued it. */
  readonly at: number;
}

function isExhausted(cell: QaRunCell): boolean {
  return cell.attempts >= MAX_CELL_ATTEMPTS;
}
