import type { AppDatabase } from '@agentdesk/storage';
import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { CellJob, CellJobHandler, CellJobRequest, CellQueue } from './cell-queue';

const cellJobSchema = z.object({
  runId: z.string(),
  caseIndex: z.number().int().nonnegative(),
  targetIndex: z.number().int().nonnegative(),
});

/** A job's data: the app's pool returns json columns as text (the storage lib parses JSON itself). */
function cellJobOf(data: unknown): CellJob | undefined {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return cellJobSchema.safeParse(value).data;
}

/** Starts of pg-boss tried before the API gives up (a race with another replica's install is retried). */
const START_ATTEMPTS = 5;

/**
 * Runs one pg-boss statement (sometimes a `BEGIN; …; COMMIT;` script) on a connection of the app's
 * pool, and rolls back when it fails: otherwise a failed script leaves its connection inside an
 * aborted transaction, and every later query that gets it from the pool fails ("current transaction
 * is aborted") — seen with three replicas starting together.
 */
async function executeOnOwnConnection(
  database: AppDatabase,
  text: string,
  values: readonly unknown[],
): Promise<{ rows: unknown[] }> {
  return database.db.connection().execute(async (connection) => {
    try {
      const result = await connection.executeQuery(CompiledQuery.raw(text, [...values]));
      return { rows: [...result.rows] };
    } catch (error) {
      await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
      throw error;
    }
  });
}

/** The pg-boss queue every replica takes QA suite cells from. */
export const CELL_QUEUE_NAME = 'qa-suite-cells';

/**
 * A job is acknowledged as soon as its cell is claimed (milliseconds after the fetch). Only a
 * replica that dies in between (or during the fetch itself) leaves a job active, with its cell
 * still pending: pg-boss hands it out again once the job expires, found at its next maintenance.
 * Both follow the cell lease, so a dead replica's fetched cells move on as soon as its claimed
 * ones do (a fixed 60 s expiry left such a run unfinished for up to 76 s while its leases were 2 s).
 * An expiry of a live but slow replica only delivers the job twice; the claim decides.
 */
export function jobTimingsFor(leaseMs: number): {
  expireInSeconds: number;
  maintenanceIntervalSeconds: number;
} {
  const leaseSeconds = Math.max(1, Math.ceil(leaseMs / 1_000));
  return {
    expireInSeconds: leaseSeconds,
    maintenanceIntervalSeconds: Math.min(15, Math.max(1, Math.ceil(leaseSeconds / 2))),
  };
}
/**
 * Deliveries of one job before pg-boss fails it. Each one is a worker that fetched it and vanished
 * (or could not reach the database): a job pg-boss failed would leave its cell pending until the
 * next start, so the limit is far above anything but a queue no worker can serve.
 */
const JOB_RETRY_LIMIT = 10_000;
const JOB_RETRY_DELAY_SECONDS = 1;
/** How long the fetch loop waits after an empty fetch (an enqueue on this replica wakes it at once). */
const EMPTY_QUEUE_POLL_MS = 250;
const FAILED_FETCH_RETRY_MS = 2_000;
/** pg-boss inserts a batch as one JSON parameter: thousands of cells go in chunks. */
const INSERT_CHUNK = 1_000;

export interface PgBossCellQueueOptions {
  readonly database: AppDatabase;
  /** PostgreSQL schema of pg-boss's tables. */
  readonly schema: string;
  /** Jobs handed out at once on this replica. */
  readonly capacity: number;
  /** The cell lease: how soon a job fetched by a replica that died is handed out again. */
  readonly leaseMs: number;
  readonly logger: Pick<Logger, 'warn' | 'error'>;
}

/**
 * The cell queue on PostgreSQL: pg-boss (its tables in `schema`, over the app's own connection
 * pool), worked by every replica. The fetch loop asks for as many jobs as this replica has free
 * slots, so replicas share the work instead of one hoarding it.
 */
export class PgBossCellQueue implements CellQueue {
  private boss: PgBoss;
  private handler: CellJobHandler | undefined;
  private loop: Promise<void> | undefined;
  private stopped = false;
  private inFlight = 0;
  private readonly settled = new Set<Promise<void>>();
  private wake: (() => void) | undefined;
  private readonly timings: ReturnType<typeof jobTimingsFor>;

  constructor(private readonly options: PgBossCellQueueOptions) {
    this.timings = jobTimingsFor(options.leaseMs);
    this.boss = this.newBoss();
  }

  /** A pg-boss over the app's pool; a fresh one per start attempt (a failed start leaves one unusable). */
  private newBoss(): PgBoss {
    const { database, logger } = this.options;
    const boss = new PgBoss({
      db: { executeSql: (text, values) => executeOnOwnConnection(database, text, values ?? []) },
      schema: this.options.schema,
      migrate: true,
      supervise: true,
      schedule: false,
      maintenanceIntervalSeconds: this.timings.maintenanceIntervalSeconds,
    });
    boss.on('error', (error) => logger.warn({ err: error }, 'pg-boss (QA suite cells) reported an error'));
    return boss;
  }

  async start(handler: CellJobHandler): Promise<void> {
    // Replicas starting together race to install pg-boss's schema and create the queue; the loser of
    // a race gets an error from a statement the winner already ran. Starting again then finds it done.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.start();
        await this.boss.createQueue(CELL_QUEUE_NAME, {
          name: CELL_QUEUE_NAME,
          retryLimit: JOB_RETRY_LIMIT,
          retryDelay: JOB_RETRY_DELAY_SECONDS,
          expireInSeconds: this.timings.expireInSeconds,
        });
        break;
      } catch (error) {
        if (attempt >= START_ATTEMPTS) throw error;
        this.options.logger.warn(
          { err: error, attempt },
          'pg-boss (QA suite cells) did not start; trying again',
        );
        await this.boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        this.boss = this.newBoss();
      }
    }
    this.handler = handler;
    this.loop = this.fetchLoop();
  }

  async enqueue(jobs: readonly CellJobRequest[]): Promise<void> {
    for (let start = 0; start < jobs.length; start += INSERT_CHUNK) {
      await this.boss.insert(
        jobs.slice(start, start + INSERT_CHUNK).map((job) => ({
          name: CELL_QUEUE_NAME,
          data: { runId: job.runId, caseIndex: job.caseIndex, targetIndex: job.targetIndex },
          retryLimit: JOB_RETRY_LIMIT,
          retryDelay: JOB_RETRY_DELAY_SECONDS,
          // Per job too: a queue created by an earlier version keeps its own options.
          expireInSeconds: this.timings.expireInSeconds,
          ...(job.notBefore !== undefined && { startAfter: new Date(job.notBefore) }),
        })),
      );
    }
    this.wake?.();
  }

  /** Stops fetching, waits for the jobs handed out to return, then stops pg-boss (the pool is the app's). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await Promise.all(this.settled);
    await this.boss.stop({ graceful: false, close: false, wait: true });
  }

  private async fetchLoop(): Promise<void> {
    while (!this.stopped) {
      const free = this.options.capacity - this.inFlight;
      if (free <= 0) {
        await this.sleep(undefined);
        continue;
      }
      let jobs: PgBoss.Job<unknown>[];
      try {
        jobs = await this.boss.fetch<unknown>(CELL_QUEUE_NAME, { batchSize: free });
      } catch (error) {
        if (this.stopped) return;
        this.options.logger.warn({ err: error }, 'could not fetch QA suite cells from pg-boss; trying again');
        await this.sleep(FAILED_FETCH_RETRY_MS);
        continue;
      }
      if (jobs.length === 0) await this.sleep(EMPTY_QUEUE_POLL_MS);
      for (const job of jobs) this.hand(job);
    }
  }

  private hand(job: PgBoss.Job<unknown>): void {
    const handler = this.handler;
    if (handler === undefined) return;
    const cell = cellJobOf(job.data);
    if (cell === undefined) {
      this.options.logger.error({ jobId: job.id }, 'a QA suite cell job names no cell; it is dropped');
      void this.boss.complete(CELL_QUEUE_NAME, job.id).catch(() => undefined);
      return;
    }
    let decided = false;
    const acknowledge = () => {
      if (decided) return;
      decided = true;
      this.boss.complete(CELL_QUEUE_NAME, job.id).catch((error: unknown) => {
        // The job expires and is handed out again; claiming the cell then finds it taken or done.
        this.options.logger.warn({ err: error, jobId: job.id }, 'could not acknowledge a QA suite cell job');
      });
    };
    const retry = () => {
      if (decided) return;
      decided = true;
      // Back to `retry`, handed out after the retry delay (or, if this fails too, once it expires).
      this.boss.fail(CELL_QUEUE_NAME, job.id).catch((error: unknown) => {
        this.options.logger.warn({ err: error, jobId: job.id }, 'could not return a QA suite cell job');
      });
    };
    this.inFlight += 1;
    const settled: Promise<void> = handler(cell, { acknowledge, retry })
      .catch((error: unknown) =>
        this.options.logger.error({ err: error, cell }, 'a QA suite cell job failed'),
      )
      .finally(() => {
        acknowledge();
        this.inFlight -= 1;
        this.settled.delete(settled);
        this.wake?.();
      });
    this.settled.add(settled);
  }

  /** Waits `ms` (or, undefined, until woken): a freed slot, an enqueue or the stop wakes it early. */
  private sleep(ms: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
