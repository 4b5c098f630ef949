/** One cell of a run to execute: which run, which case, which target. */
export interface CellJob {
  readonly runId: string;
  readonly caseIndex: number;
  readonly targetIndex: number;
}

/** A job to enqueue, optionally not before a time (a cell whose lease another worker holds). */
export interface CellJobRequest extends CellJob {
  /** Epoch ms before which the job is not handed out. */
  readonly notBefore?: number;
}

/**
 * What the handler tells the queue about a job it was given. The queue only delivers: the cell's
 * row (claimed under a lease, finished once) is what guarantees no cell is lost or counted twice,
 * so the handler acknowledges as soon as the cell is claimed (or found not claimable), and a job
 * delivered to a worker that dies before that is delivered again (pg-boss: once it expires, a
 * lease after its fetch). The first of the two calls decides; later ones do nothing.
 */
export interface CellDelivery {
  /** The claim was decided (won, or the cell was not claimable): the job is done. */
  acknowledge(): void;
  /** The claim could not be tried (the database failed): deliver the job again shortly. */
  retry(): void;
}

/** Executes one job; resolves when the worker is done with it (never rejects: it logs). */
export type CellJobHandler = (job: CellJob, delivery: CellDelivery) => Promise<void>;

/**
 * Where a run's cells wait for a worker. `InProcessCellQueue` on SQLite (one process); on
 * PostgreSQL `PgBossCellQueue`, which every replica works on. Either way a job may be delivered
 * more than once: claiming the cell decides who runs it.
 */
export interface CellQueue {
  /** Starts handing jobs to `handler`, at most `capacity` (given at construction) at once. */
  start(handler: CellJobHandler): Promise<void>;
  enqueue(jobs: readonly CellJobRequest[]): Promise<void>;
  /** Stops handing out jobs; jobs not handed out stay queued (pg-boss) or are dropped (in process: the cells stay pending in the database and are enqueued again at the next start). */
  stop(): Promise<void>;
}
