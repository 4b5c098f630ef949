import type { CellDelivery, CellJob, CellJobHandler, CellJobRequest, CellQueue } from './cell-queue';

/** How long a job whose claim could not be tried waits before it is handed out again. */
const RETRY_DELAY_MS = 1_000;

/**
 * The cell queue of a single process (SQLite): a FIFO in memory, at most `capacity` jobs handed
 * out at once. Nothing survives the process; the engine enqueues every unfinished cell again when
 * it starts, which is what a queue in the database would have kept.
 */
export class InProcessCellQueue implements CellQueue {
  private readonly waiting: CellJob[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler: CellJobHandler | undefined;
  private inFlight = 0;
  private stopped = false;
  private readonly settled = new Set<Promise<void>>();

  constructor(private readonly capacity: number) {}

  async start(handler: CellJobHandler): Promise<void> {
    this.handler = handler;
    this.stopped = false;
    this.dispatch();
  }

  async enqueue(jobs: readonly CellJobRequest[]): Promise<void> {
    const now = Date.now();
    for (const { notBefore, ...job } of jobs) {
      if (notBefore === undefined || notBefore <= now) {
        this.waiting.push(job);
        continue;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.waiting.push(job);
        this.dispatch();
      }, notBefore - now);
      timer.unref();
      this.timers.add(timer);
    }
    this.dispatch();
  }

  /** Drops the jobs not handed out (their cells stay pending) and waits for those that were. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.length = 0;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all(this.settled);
  }

  /** Jobs waiting for a worker (tests). */
  get queued(): number {
    return this.waiting.length;
  }

  /** Nothing to acknowledge in memory; a retry puts the job back after a delay. */
  private deliveryOf(job: CellJob): CellDelivery {
    let decided = false;
    return {
      acknowledge: () => {
        decided = true;
      },
      retry: () => {
        if (decided || this.stopped) return;
        decided = true;
        void this.enqueue([{ ...job, notBefore: Date.now() + RETRY_DELAY_MS }]);
      },
    };
  }

  private dispatch(): void {
    const handler = this.handler;
    if (handler === undefined) return;
    while (!this.stopped && this.inFlight < this.capacity) {
      const job = this.waiting.shift();
      if (job === undefined) return;
      this.inFlight += 1;
      const settled: Promise<void> = handler(job, this.deliveryOf(job))
        .catch(() => undefined) // the handler logs its own failures
        .finally(() => {
          this.inFlight -= 1;
          this.settled.delete(settled);
          this.dispatch();
        });
      this.settled.add(settled);
    }
  }
}
