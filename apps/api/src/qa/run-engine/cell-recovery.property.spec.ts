import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import OpenAI from 'openai';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SupportedClient } from '@agentdesk/providers';
import {
  createRepositories,
  migrateToLatest,
  openDatabase,
  type JsonObject,
  type QaRunCell,
  type QaSuiteRun,
  type Repositories,
} from '@agentdesk/storage';
import type { ResolvedModel } from '../../model-access/model-router';
import { PriceBook } from '../../shared/metering/price-book';
import { CellExecutor, GIVEN_UP_REASON, MAX_CELL_ATTEMPTS } from './cell-executor';
import type { CellDelivery, CellJob, CellJobRequest, CellQueue } from './cell-queue';
import { CellRecovery } from './cell-recovery';
import { jobTimingsFor } from './pg-boss-cell-queue';
import { ProviderSlots } from './provider-slots';
import { RunDirectory } from './run-directory';

/*
 * The queue + lease state machine of the run engine, explored by fast-check: several replicas, each
 * the real `CellExecutor` and `CellRecovery` over the real qa runs repository on a SQLite file,
 * take one run's cells from a model of pg-boss (at-least-once: fetched jobs expire and come back).
 * Every call a replica makes to the database or to the model is held until the schedule lets it
 * through, so the schedule decides the interleaving, and a replica can vanish between any two steps
 * (before a held call reaches the database, or after it did but before the reply came back).
 *
 * Time is vitest's fake clock: `Date.now` (read by `CellRecovery`, and by the repositories through
 * their clock), the lease heartbeat's and the recovery's intervals and the model call's deadline all
 * move only when the schedule advances it. better-sqlite3 is synchronous, so once a held call is let
 * through, letting promise jobs run (a few turns of the real event loop) brings every replica to its
 * next held call: the interleaving is exactly the schedule's, and a failure replays from its seed.
 *
 * After the schedule the surviving replicas drain the run (a fresh one starts only if none is left)
 * and it must end: every cell finished once, or given up after its third strike.
 */

type QaRuns = Repositories['qaRuns'];
type ModelAnswer = 'valid' | 'invalid';

/**
 * One step of a schedule. `replica` numbers the replicas the command can act on then (holding a
 * call, free to fetch…), `pick` their held calls or the jobs due, both wrapping around.
 */
type Command =
  /** A replica's fetch loop takes one job the queue would hand out now. */
  | { readonly kind: 'fetch'; readonly replica: number; readonly pick: number }
  /** One held call of a replica goes through and its reply comes back (a model call answers `answer`). */
  | { readonly kind: 'step'; readonly replica: number; readonly pick: number; readonly answer: ModelAnswer }
  /**
   * A replica runs unimpeded for a moment: its held calls go through one after the other (the
   * model answering too, if `model`) until it waits on nothing more of that kind.
   */
  | { readonly kind: 'flow'; readonly replica: number; readonly model: boolean }
  /** A held database call fails without reaching the database. */
  | { readonly kind: 'refuse'; readonly replica: number; readonly pick: number }
  /** A held database call is done, but its reply is lost: the replica sees a failure. */
  | { readonly kind: 'lose-reply'; readonly replica: number; readonly pick: number }
  /**
   * The replica's process dies, holding whatever it held (after one held call went through, maybe);
   * `working`: one with a job in hand (a cell is struck only when the worker holding it dies).
   */
  | {
      readonly kind: 'vanish';
      readonly replica: number;
      readonly working: boolean;
      readonly pick: number;
      readonly afterHeldCall: boolean;
    }
  /** Time passes (a share of the lease, in percent): heartbeats, sweeps and deadlines fall due. */
  | { readonly kind: 'advance'; readonly percentOfLease: number }
  /** pg-boss's maintenance: active jobs past their expiry go back to be handed out again. */
  | { readonly kind: 'expire-jobs' }
  /**
   * The replica stops as the app does on SIGTERM (`SuiteRunEngine.beforeApplicationShutdown`);
   * `fetchInFlight`: its fetch loop was waiting on a fetch, whose jobs reach the handler after the
   * stop (how this property found the executor acknowledging, unclaimed, jobs it got while closing).
   */
  | { readonly kind: 'shut-down'; readonly replica: number; readonly fetchInFlight: boolean }
  /** A new replica starts (its recovery's start-up pass resumes what it finds). */
  | { readonly kind: 'join'; readonly replica: ReplicaSpec };

/** When a replica's process dies by itself: at its `calls`th held call of a cell's work let through. */
interface Lifetime {
  readonly calls: number;
  /** Once that call reached the database (its reply never comes back), or before it did. */
  readonly midCall: boolean;
}

interface ReplicaSpec {
  /** Jobs it takes at once (`cellsInFlight`). */
  readonly capacity: number;
  /** Never dies by itself when undefined (a schedule's `vanish` may still end it). */
  readonly lifetime: Lifetime | undefined;
}

interface Scenario {
  readonly leaseMs: number;
  readonly caseCount: number;
  readonly targetCount: number;
  /** The replicas up when the run starts. */
  readonly replicas: readonly ReplicaSpec[];
  readonly schedule: readonly Command[];
}

const START_OF_TIME = Date.UTC(2026, 0, 1);
/** pg-boss hands a failed or expired job out again after the queue's retry delay (PgBossCellQueue: 1 s). */
const JOB_RETRY_DELAY_MS = 1_000;
/** The model call's limit per cell: long enough that most schedules never reach it, not all. */
const SUITE_TIMEOUT_MS = 20_000;
/** Replicas a schedule may have started in all (the drain may start more if none is left). */
const MAX_REPLICAS = 8;
/** Held calls a replica running unimpeded lets through in one command. */
const MAX_FLOW_CALLS = 20;
/**
 * Rounds of the drain: each lets every held call through, fetches what can be fetched and, when
 * nothing moved, advances a quarter lease. A run whose every cell was given up after three dead
 * workers needs a few dozen; far more means it would never end.
 */
const MAX_DRAIN_ROUNDS = 400;
/** Runs of the property: about 5 s of CPU time (the drain included). */
const RUNS = 100;

const answerSchema: JsonObject = {
  type: 'object',
  properties: { answer: { type: 'string', enum: ['yes'] } },
  required: ['answer'],
  additionalProperties: false,
};

function cellName(cell: Pick<CellJob, 'caseIndex' | 'targetIndex'>): string {
  return `${cell.caseIndex}/${cell.targetIndex}`;
}

function elapsed(): string {
  return `+${Date.now() - START_OF_TIME}ms`;
}

/** What the schedule did and what it led to, to explain a failure. */
class Ledger {
  private readonly lines: string[] = [];
  /** Per cell, each worker's lease as last granted (epoch ms). */
  private readonly leases = new Map<string, Map<string, number>>();
  /** Per cell, the calls that finished it (finish or give-up) and took effect. */
  readonly finishes = new Map<string, string[]>();
  readonly violations: string[] = [];
  /** Errors the engine logged that no injected failure explains. */
  readonly unexpectedErrors: string[] = [];

  note(line: string): void {
    this.lines.push(`${elapsed()} ${line}`);
  }

  /** Time passing, told once for a stretch in which nothing else happened. */
  timePassed(ms: number): void {
    const last = this.lines.at(-1);
    const stretch = last === undefined ? undefined : /^\+\d+ms time passes: (\d+)ms$/.exec(last);
    if (stretch?.[1] !== undefined) this.lines.pop();
    this.note(`time passes: ${Number(stretch?.[1] ?? 0) + ms}ms`);
  }

  /** The last lines of the story (a long one is cut at the front). */
  story(): string {
    return ['what happened:', ...this.lines.slice(-150)].join('\n');
  }

  /** A claim or a renewal gave `workerId` the cell until `until`: no other worker's lease may still run. */
  leaseGranted(cell: string, workerId: string, until: number, how: string): void {
    const now = Date.now();
    const holders = this.leases.get(cell) ?? new Map<string, number>();
    for (const [other, otherUntil] of holders)
      // A lease is live through its last millisecond: `claimCell` takes only `lease_until < now`.
      if (other !== workerId && otherUntil >= now)
        this.violations.push(
          `${how} gave cell ${cell} to ${workerId} at ${elapsed()} while ${other}'s lease ran until +${otherUntil - START_OF_TIME}ms`,
        );
    holders.set(workerId, until);
    this.leases.set(cell, holders);
  }

  finished(cell: string, how: string): void {
    const earlier = this.finishes.get(cell) ?? [];
    if (earlier.length > 0)
      this.violations.push(`cell ${cell} was finished twice: ${[...earlier, how].join('; then ')}`);
    this.finishes.set(cell, [...earlier, how]);
    // A finished cell has no lease any more.
    this.leases.delete(cell);
  }
}

const heldMethods = [
  'claimCell',
  'extendLease',
  'finishCell',
  'giveUpCell',
  'running',
  'unfinishedCells',
  'cancelStrandedCells',
] as const;
type HeldMethod = (typeof heldMethods)[number];

/**
 * The real repository, with what each effective call did written in the ledger: a test's own eyes
 * on the database calls, whoever made them and whether or not the caller ever saw the reply.
 */
function observedRepository(runs: QaRuns, ledger: Ledger): Pick<QaRuns, HeldMethod> {
  return {
    claimCell: async (runId, caseIndex, targetIndex, workerId, leaseMs) => {
      const claimed = await runs.claimCell(runId, caseIndex, targetIndex, workerId, leaseMs);
      const cell = cellName({ caseIndex, targetIndex });
      if (claimed === undefined) ledger.note(`${workerId} claims ${cell}: not claimable`);
      else {
        const until = claimed.leaseUntil?.getTime() ?? Number.NaN;
        ledger.note(`${workerId} claims ${cell}: won, attempt ${claimed.attempts}`);
        ledger.leaseGranted(cell, workerId, until, 'a claim');
      }
      return claimed;
    },
    extendLease: async (runId, caseIndex, targetIndex, workerId, leaseMs) => {
      const state = await runs.extendLease(runId, caseIndex, targetIndex, workerId, leaseMs);
      const cell = cellName({ caseIndex, targetIndex });
      ledger.note(`${workerId} extends its lease of ${cell} by ${leaseMs}ms: ${state}`);
      if (state === 'held') ledger.leaseGranted(cell, workerId, Date.now() + leaseMs, 'a renewal');
      return state;
    },
    finishCell: async (runId, caseIndex, targetIndex, workerId, outcome) => {
      const finished = await runs.finishCell(runId, caseIndex, targetIndex, workerId, outcome);
      const cell = cellName({ caseIndex, targetIndex });
      ledger.note(`${workerId} finishes ${cell} as ${outcome.status}: ${finished ? 'done' : 'refused'}`);
      if (finished) ledger.finished(cell, `finished by ${workerId} as ${outcome.status}`);
      return finished;
    },
    giveUpCell: async (runId, caseIndex, targetIndex, reason) => {
      const givenUp = await runs.giveUpCell(runId, caseIndex, targetIndex, reason);
      const cell = cellName({ caseIndex, targetIndex });
      ledger.note(`${cell} given up: ${givenUp ? 'done' : 'already finished'}`);
      if (givenUp) ledger.finished(cell, 'given up');
      return givenUp;
    },
    running: () => runs.running(),
    unfinishedCells: (runId) => runs.unfinishedCells(runId),
    cancelStrandedCells: async () => {
      const cancelled = await runs.cancelStrandedCells();
      // No run is cancelled here: a stranded cell of a running run would be a defect.
      if (cancelled > 0) ledger.violations.push(`${cancelled} cells were cancelled though no run was`);
      return cancelled;
    },
  };
}

/** A failure the schedule injected (a database that refused, a reply that was lost). */
class InjectedFailure extends Error {
  override readonly name = 'InjectedFailure';
}

/** How a held call goes through: its reply comes back, is lost (a failure), or never comes (the replica died). */
type Reply = 'reply' | 'lose-reply' | 'never-reply';

type HeldKind = 'cell' | 'sweep' | 'model';
const DATABASE_CALLS: readonly HeldKind[] = ['cell', 'sweep'];
const ANY_CALL: readonly HeldKind[] = ['cell', 'sweep', 'model'];

/** A call a replica made that waits for the schedule. */
interface HeldCall {
  readonly label: string;
  /** A database call of the executor (a cell's), of the recovery (a sweep's), or the model call. */
  readonly kind: HeldKind;
  release(reply: Reply, answer: ModelAnswer): Promise<void>;
  /** Fails without doing anything (the database could not be reached). */
  refuse(): void;
}

/** pg-boss's states of a job, as far as a cell job goes (`created` and `retry` both wait to be fetched). */
type JobState = 'created' | 'retry' | 'active' | 'completed';

interface ModelledJob {
  readonly id: number;
  readonly cell: CellJob;
  state: JobState;
  /** Not handed out before (epoch ms). */
  startAfter: number;
  /** When it was last fetched (epoch ms). */
  startedOn: number;
}

/**
 * pg-boss as `PgBossCellQueue` uses it (plans.js of pg-boss 10): a fetch takes a waiting job whose
 * start is due and makes it active; `complete` applies to an active job only; `fail` (and the
 * maintenance, to an active job past `expireIn` after its fetch) puts it back to wait the retry
 * delay. Fetch order is left to the schedule: replicas fetching at once skip each other's rows.
 */
class ModelledPgBoss implements Pick<CellQueue, 'enqueue'> {
  private readonly jobs: ModelledJob[] = [];

  constructor(
    private readonly expireInMs: number,
    private readonly ledger: Ledger,
  ) {}

  async enqueue(requests: readonly CellJobRequest[]): Promise<void> {
    for (const { notBefore, ...cell } of requests) {
      const job: ModelledJob = {
        id: this.jobs.length + 1,
        cell,
        state: 'created',
        // pg-boss fetches `start_after < now()`; here time stands still between steps, so a due job
        // is one whose start is not in the future.
        startAfter: notBefore ?? Date.now(),
        startedOn: 0,
      };
      this.jobs.push(job);
      const delay = job.startAfter - Date.now();
      this.ledger.note(
        `job ${job.id} for ${cellName(cell)} enqueued${delay > 0 ? `, due in ${delay}ms` : ''}`,
      );
    }
  }

  fetchable(): ModelledJob[] {
    const now = Date.now();
    return this.jobs.filter(
      (job) => (job.state === 'created' || job.state === 'retry') && job.startAfter <= now,
    );
  }

  markFetched(job: ModelledJob): void {
    job.state = 'active';
    job.startedOn = Date.now();
  }

  complete(job: ModelledJob): void {
    if (job.state !== 'active') return;
    job.state = 'completed';
    this.ledger.note(`job ${job.id} completed`);
  }

  fail(job: ModelledJob): void {
    if (job.state === 'completed') return;
    this.putBack(job, 'failed');
  }

  expireOverdue(): void {
    const now = Date.now();
    for (const job of this.jobs)
      if (job.state === 'active' && job.startedOn + this.expireInMs < now) this.putBack(job, 'expired');
  }

  private putBack(job: ModelledJob, why: string): void {
    job.state = 'retry';
    job.startAfter = Date.now() + JOB_RETRY_DELAY_MS;
    this.ledger.note(`job ${job.id} ${why}: handed out again in ${JOB_RETRY_DELAY_MS}ms`);
  }
}

/** A chat completion the way the OpenAI SDK returns one, answering the case's schema or not. */
function completionOf(answer: ModelAnswer): unknown {
  return {
    id: 'chatcmpl-property',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: {
          role: 'assistant',
          content: JSON.stringify({ answer: answer === 'valid' ? 'yes' : 'no' }),
          refusal: null,
        },
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
  };
}

type ReplicaStatus = 'up' | 'stopping' | 'gone';

/** Logs the engine writes; an error log with no injected failure behind it fails the property. */
function engineLogger(ledger: Ledger, workerId: string) {
  return {
    info: () => undefined,
    warn: () => undefined,
    error: (fields: unknown, message?: string) => {
      const error = typeof fields === 'object' && fields !== null && 'err' in fields ? fields.err : undefined;
      ledger.note(`${workerId} logged an error: ${message ?? ''} (${String(error)})`);
      if (!(error instanceof InjectedFailure))
        ledger.unexpectedErrors.push(`${workerId}: ${message ?? ''}: ${String(error)}`);
    },
  };
}

/**
 * One API replica: the real executor and recovery, over the real repository, with every database
 * and model call it makes held until the schedule lets it through. Gone, it does nothing more.
 */
class Replica {
  status: ReplicaStatus = 'up';
  /** Its recovery's start-up pass ended (the app finished starting). */
  started = false;
  /** Its queue stopped fetching (shutdown). */
  queueStopped = false;
  inFlight = 0;
  /** Its own death, counted in held calls from when it is set (none: it lives until killed). */
  lifetime: Lifetime | undefined;
  private callsLived = 0;
  readonly held: HeldCall[] = [];
  readonly executor: CellExecutor;
  readonly recovery: CellRecovery;

  constructor(
    readonly workerId: string,
    readonly capacity: number,
    repositories: Repositories,
    observed: Pick<QaRuns, HeldMethod>,
    prices: PriceBook,
    queue: ModelledPgBoss,
    leaseMs: number,
    private readonly ledger: Ledger,
  ) {
    const runs = this.heldRepository(repositories.qaRuns, observed);
    const client = this.modelClient();
    const logger = engineLogger(ledger, workerId);
    this.executor = new CellExecutor({
      runs,
      // The definition is read outside the held calls: a read that changes nothing.
      directory: new RunDirectory(repositories, 4),
      router: { resolve: (model: string): ResolvedModel => ({ model, provider: 'openai', client }) },
      usageMeter: { record: () => undefined, prices },
      slots: new ProviderSlots(),
      runJavaScript: async () => {
        throw new Error('the suites here have no JavaScript assertions');
      },
      logger,
      workerId,
      leaseMs,
    });
    this.recovery = new CellRecovery(runs, queue, leaseMs, logger);
  }

  isGone(): boolean {
    return this.status === 'gone';
  }

  canFetch(): boolean {
    if (this.isGone() || this.inFlight >= this.capacity) return false;
    return !this.queueStopped;
  }

  /** Starts as `SuiteRunEngine.onApplicationBootstrap` does (the queue is already handing out jobs). */
  start(): void {
    void this.recovery.start().then(
      () => {
        this.started = true;
      },
      // The app fails to start: the process exits.
      () => this.vanish(),
    );
  }

  /**
   * `SuiteRunEngine.beforeApplicationShutdown`, in its order (the held calls it makes wait like
   * any); `queueStopped` runs once `PgBossCellQueue.stop` has stopped the fetch loop.
   */
  async shutDown(queueStopped: () => void): Promise<void> {
    this.status = 'stopping';
    this.ledger.note(`${this.workerId} shuts down`);
    await this.recovery.stop();
    if (this.isGone()) return;
    this.executor.shutDown();
    this.queueStopped = true;
    queueStopped();
  }

  /** The process dies: nothing it holds is let through any more (`completing` is, first, if given). */
  async vanish(completing?: HeldCall): Promise<void> {
    if (this.isGone()) return;
    this.status = 'gone';
    this.held.length = 0;
    this.ledger.note(
      `${this.workerId} vanishes${completing === undefined ? '' : ` once its ${completing.label} went through`}`,
    );
    await completing?.release('never-reply', 'valid');
  }

  /** Counts a call of a cell's work let through; false when it is the one the replica dies at. */
  private livesThrough(): boolean {
    if (this.lifetime === undefined) return true;
    this.callsLived += 1;
    return this.callsLived < this.lifetime.calls;
  }

  /** Holds a call until the schedule lets it through; a call made by a dead replica never returns. */
  hold<T>(
    label: string,
    kind: HeldKind,
    perform: (answer: ModelAnswer) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (this.isGone()) return new Promise<T>(() => undefined);
    return new Promise<T>((resolve, reject) => {
      const call: HeldCall = {
        label,
        kind,
        release: async (reply, answer) => {
          if (reply !== 'never-reply' && kind !== 'sweep' && !this.livesThrough()) {
            await this.vanish(this.lifetime?.midCall === true ? call : undefined);
            return;
          }
          this.forget(call);
          let outcome: { ok: true; value: T } | { ok: false; error: Error };
          try {
            outcome = { ok: true, value: await perform(answer) };
          } catch (error) {
            outcome = { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
          }
          if (reply === 'never-reply') return;
          if (reply === 'lose-reply') {
            this.ledger.note(`${this.workerId}: the reply to ${label} is lost`);
            reject(new InjectedFailure(`${label}: done, but the reply was lost`));
          } else if (outcome.ok) resolve(outcome.value);
          else reject(outcome.error);
        },
        refuse: () => {
          this.forget(call);
          this.ledger.note(`${this.workerId}: ${label} refused by the database`);
          reject(new InjectedFailure(`${label}: the database refused it`));
        },
      };
      if (signal !== undefined) {
        const abort = () => {
          if (this.isGone()) return;
          this.forget(call);
          // What the SDK throws when the caller aborts.
          reject(new OpenAI.APIUserAbortError());
        };
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
      }
      this.held.push(call);
    });
  }

  private forget(call: HeldCall): void {
    const index = this.held.indexOf(call);
    if (index >= 0) this.held.splice(index, 1);
  }

  /** The repository as this replica reaches it: the held methods wait for the schedule, no other is used. */
  private heldRepository(runs: QaRuns, observed: Pick<QaRuns, HeldMethod>): QaRuns {
    const database = <T>(label: string, perform: () => Promise<T>) => this.hold(label, 'cell', perform);
    const sweep = <T>(label: string, perform: () => Promise<T>) => this.hold(label, 'sweep', perform);
    const held: Pick<QaRuns, HeldMethod> = {
      claimCell: (...args) =>
        database(`claim of ${cellName({ caseIndex: args[1], targetIndex: args[2] })}`, () =>
          observed.claimCell(...args),
        ),
      extendLease: (...args) =>
        database(`lease renewal of ${cellName({ caseIndex: args[1], targetIndex: args[2] })}`, () =>
          observed.extendLease(...args),
        ),
      finishCell: (...args) =>
        database(`finish of ${cellName({ caseIndex: args[1], targetIndex: args[2] })}`, () =>
          observed.finishCell(...args),
        ),
      giveUpCell: (...args) =>
        database(`give-up of ${cellName({ caseIndex: args[1], targetIndex: args[2] })}`, () =>
          observed.giveUpCell(...args),
        ),
      running: () => sweep('sweep: read running runs', () => observed.running()),
      unfinishedCells: (runId) =>
        sweep('sweep: read unfinished cells', () => observed.unfinishedCells(runId)),
      cancelStrandedCells: () => sweep('sweep: cancel stranded cells', () => observed.cancelStrandedCells()),
    };
    return new Proxy(runs, {
      get(target, property, receiver) {
        if (typeof property === 'string' && (heldMethods as readonly string[]).includes(property))
          return held[property as HeldMethod];
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value === 'function')
          throw new Error(`the engine called qaRuns.${String(property)}, which this test does not hold`);
        return value;
      },
    });
  }

  /** An OpenAI client whose every call waits for the schedule (and ends at once when aborted). */
  private modelClient(): SupportedClient {
    const create = (_body: unknown, options?: { signal?: AbortSignal | null }) =>
      this.hold('model call', 'model', async (answer) => completionOf(answer), options?.signal ?? undefined);
    // Duck-typed like the SDK's client: the OpenAI adapter only calls `chat.completions.create`.
    return { chat: { completions: { create } } } as unknown as SupportedClient;
  }
}

/** Lets every replica run until it waits on a held call (all that runs meanwhile are promise jobs). */
async function letPromisesRun(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The replicas, the queue and the run under test. */
class Simulation {
  readonly ledger = new Ledger();
  readonly queue: ModelledPgBoss;
  readonly replicas: Replica[] = [];
  private readonly observed: Pick<QaRuns, HeldMethod>;
  private readonly prices: PriceBook;
  /** Each finished cell as first seen: its outcome must never change. */
  private readonly firstSeenFinished = new Map<string, string>();
  private runId = '';

  constructor(
    private readonly repositories: Repositories,
    private readonly leaseMs: number,
  ) {
    this.queue = new ModelledPgBoss(jobTimingsFor(leaseMs).expireInSeconds * 1_000, this.ledger);
    this.observed = observedRepository(repositories.qaRuns, this.ledger);
    // No prices are stored: every cell costs "unknown", which is all a cell needs.
    this.prices = new PriceBook({
      modelPrices: repositories.modelPrices,
      now: () => Date.now(),
      logger: pino({ enabled: false }),
    });
  }

  join({ capacity, lifetime }: ReplicaSpec): Replica {
    const replica = new Replica(
      `replica-${this.replicas.length + 1}`,
      capacity,
      this.repositories,
      this.observed,
      this.prices,
      this.queue,
      this.leaseMs,
      this.ledger,
    );
    this.replicas.push(replica);
    const dies =
      lifetime === undefined
        ? ''
        : `, dies at its call ${lifetime.calls}${lifetime.midCall ? ' once that went through' : ''}`;
    this.ledger.note(`${replica.workerId} starts (takes ${capacity} cells at once${dies})`);
    replica.lifetime = lifetime;
    replica.start();
    return replica;
  }

  /** Creates the run (every cell pending) and enqueues its cells, as starting a run does. */
  async startRun(caseCount: number, targetCount: number): Promise<QaSuiteRun> {
    const definition: JsonObject = {
      name: 'leases',
      timeoutMs: SUITE_TIMEOUT_MS,
      targets: Array.from({ length: targetCount }, (_, index) => ({
        model: 'gpt-4o-mini',
        label: `target ${index}`,
      })),
      cases: Array.from({ length: caseCount }, (_, index) => ({
        id: `case-${index}`,
        prompt: 'Is it?',
        schema: answerSchema,
      })),
    };
    const { suite } = await this.repositories.qaSuites.create({
      name: 'leases',
      description: null,
      definition,
      caseCount,
      targetCount,
      createdBy: 'u-qa',
      note: null,
    });
    const cells = Array.from({ length: caseCount * targetCount }, (_, index) => ({
      caseIndex: Math.floor(index / targetCount),
      targetIndex: index % targetCount,
    }));
    const run = await this.repositories.qaRuns.create({
      suiteId: suite.id,
      suiteVersion: 1,
      createdBy: 'u-qa',
      options: {},
      cells: cells.map((cell) => ({ ...cell, caseId: `case-${cell.caseIndex}` })),
    });
    this.runId = run.id;
    await this.queue.enqueue(cells.map((cell) => ({ runId: run.id, ...cell })));
    return run;
  }

  async apply(command: Command): Promise<void> {
    switch (command.kind) {
      case 'fetch': {
        const replica = this.replicaAmong(command.replica, (candidate) => candidate.canFetch());
        if (replica !== undefined) this.fetch(replica, command.pick);
        break;
      }
      case 'step': {
        const call = this.heldCall(command.replica, command.pick, ANY_CALL);
        await call?.release('reply', command.answer);
        break;
      }
      case 'flow': {
        const kinds = command.model ? ANY_CALL : DATABASE_CALLS;
        const holding = (replica: Replica) => replica.held.find((call) => kinds.includes(call.kind));
        const replica = this.replicaAmong(command.replica, (candidate) => holding(candidate) !== undefined);
        if (replica === undefined) break;
        // Bounded, though a call only leads to a few more (a claim to a model call, that to a finish).
        for (let released = 0; released < MAX_FLOW_CALLS; released += 1) {
          const call = holding(replica);
          if (call === undefined) break;
          await call.release('reply', 'valid');
          await letPromisesRun();
        }
        break;
      }
      case 'refuse':
        this.heldCall(command.replica, command.pick, DATABASE_CALLS)?.refuse();
        break;
      case 'lose-reply':
        await this.heldCall(command.replica, command.pick, DATABASE_CALLS)?.release('lose-reply', 'valid');
        break;
      case 'vanish': {
        const replica = this.replicaAmong(
          command.replica,
          (candidate) => !candidate.isGone() && (!command.working || candidate.inFlight > 0),
        );
        if (replica === undefined) break;
        const completing = command.afterHeldCall
          ? replica.held[command.pick % Math.max(1, replica.held.length)]
          : undefined;
        await replica.vanish(completing);
        break;
      }
      case 'advance':
        await this.advance(Math.max(1, Math.round((this.leaseMs * command.percentOfLease) / 100)));
        break;
      case 'expire-jobs':
        this.queue.expireOverdue();
        break;
      case 'shut-down': {
        const replica = this.replicaAmong(
          command.replica,
          (candidate) => candidate.status === 'up' && candidate.started,
        );
        // `PgBossCellQueue.fetchLoop` hands out what a fetch returns even when the stop came meanwhile.
        const lateFetch = (stopped: Replica) => {
          for (let free = stopped.capacity - stopped.inFlight; free > 0; free -= 1) this.fetch(stopped, 0);
        };
        if (replica !== undefined)
          void replica.shutDown(() => (command.fetchInFlight ? lateFetch(replica) : undefined));
        break;
      }
      case 'join':
        if (this.replicas.length < MAX_REPLICAS) this.join(command.replica);
        break;
    }
    await letPromisesRun();
  }

  /**
   * Lets the surviving replicas finish: every held call goes through, jobs are fetched, and time
   * advances when nothing else moves. A fresh replica starts only when none is left to work, as
   * an orchestrator would; the survivors alone must finish the run.
   */
  async drain(): Promise<void> {
    for (let round = 0; round < MAX_DRAIN_ROUNDS; round += 1) {
      if (await this.runEnded()) return;
      if (!this.replicas.some((replica) => replica.status === 'up')) {
        this.ledger.note('no replica is left: a fresh one starts');
        this.join({ capacity: 1, lifetime: undefined });
        await letPromisesRun();
      }
      let moved = false;
      for (const replica of this.replicas)
        for (let next = replica.held[0]; next !== undefined && !replica.isGone(); next = replica.held[0]) {
          await next.release('reply', 'valid');
          await letPromisesRun();
          moved = true;
        }
      this.queue.expireOverdue();
      for (const replica of this.replicas)
        while (replica.status === 'up' && replica.canFetch() && this.queue.fetchable().length > 0) {
          this.fetch(replica, 0);
          await letPromisesRun();
          moved = true;
        }
      if (!moved) await this.advance(Math.max(1, Math.floor(this.leaseMs / 4)));
    }
  }

  /** What must hold after every step: nothing counted twice, counts equal to the cells, leases exclusive. */
  async checkSafety(): Promise<void> {
    const problems = [...this.ledger.violations, ...this.ledger.unexpectedErrors];
    const run = await this.repositories.qaRuns.get(this.runId);
    const cells = await this.repositories.qaRuns.cells(this.runId);
    const finished = cells.filter((cell) => cell.finishedAt !== null);
    const count = (status: QaRunCell['status']) => cells.filter((cell) => cell.status === status).length;
    const countsOfCells = {
      total: cells.length,
      done: finished.length,
      passed: count('passed'),
      failed: count('failed'),
      errored: count('error'),
      cancelled: count('cancelled'),
    };
    if (!isDeepStrictEqual(run.counts, countsOfCells))
      problems.push(
        `the run counts ${JSON.stringify(run.counts)}, its cells ${JSON.stringify(countsOfCells)}`,
      );
    const status = finished.length === cells.length ? 'completed' : 'running';
    if (run.status !== status)
      problems.push(`the run is ${run.status} with ${finished.length} cells finished`);
    for (const cell of finished) {
      const name = cellName(cell);
      const outcome = `${cell.status} (${cell.reason ?? 'no reason'}) at ${cell.finishedAt?.getTime()}`;
      const first = this.firstSeenFinished.get(name) ?? outcome;
      this.firstSeenFinished.set(name, first);
      if (outcome !== first) problems.push(`cell ${name} was written again: ${first}, then ${outcome}`);
      const finishes = this.ledger.finishes.get(name)?.length ?? 0;
      if (finishes !== 1) problems.push(`cell ${name} is finished, by ${finishes} calls that took effect`);
    }
    // The story is long to tell: only when something is wrong.
    if (problems.length > 0) expect(problems, this.ledger.story()).toEqual([]);
  }

  /** What must hold once the survivors drained: the run ended, every cell finished once. */
  async checkLiveness(): Promise<void> {
    const run = await this.repositories.qaRuns.get(this.runId);
    const cells = await this.repositories.qaRuns.cells(this.runId);
    const unfinished = cells
      .filter((cell) => cell.status === 'pending' || cell.status === 'running')
      .map(
        (cell) =>
          `${cellName(cell)}: ${cell.status}, attempts ${cell.attempts}, claimed by ${cell.claimedBy ?? 'nobody'}`,
      );
    expect(unfinished, `the run did not end\n${this.ledger.story()}`).toEqual([]);
    expect(run.status, this.ledger.story()).toBe('completed');
    for (const cell of cells) {
      expect(this.ledger.finishes.get(cellName(cell)), this.ledger.story()).toHaveLength(1);
      // Given up only after three workers took it and stopped (the third strike).
      if (cell.reason === GIVEN_UP_REASON)
        expect(cell.attempts, `${cellName(cell)}\n${this.ledger.story()}`).toBeGreaterThanOrEqual(
          MAX_CELL_ATTEMPTS,
        );
    }
  }

  private async runEnded(): Promise<boolean> {
    const run = await this.repositories.qaRuns.get(this.runId);
    return run.status !== 'running' && run.counts.done === run.counts.total;
  }

  private async advance(ms: number): Promise<void> {
    this.ledger.timePassed(ms);
    await vi.advanceTimersByTimeAsync(ms);
    await letPromisesRun();
  }

  /** The `number`th (wrapping around) of the replicas a command can act on: a command is rarely wasted. */
  private replicaAmong(number: number, canAct: (replica: Replica) => boolean): Replica | undefined {
    const candidates = this.replicas.filter(canAct);
    return candidates[number % Math.max(1, candidates.length)];
  }

  private heldCall(replicaNumber: number, pick: number, kinds: readonly HeldKind[]): HeldCall | undefined {
    const holding = (replica: Replica) => replica.held.filter((call) => kinds.includes(call.kind));
    const calls = this.replicaAmong(replicaNumber, (replica) => holding(replica).length > 0);
    const candidates = calls === undefined ? [] : holding(calls);
    return candidates[pick % Math.max(1, candidates.length)];
  }

  /** The fetch loop of `PgBossCellQueue` taking one job, then its `hand`. */
  private fetch(replica: Replica, pick: number): void {
    const fetchable = this.queue.fetchable();
    const job = fetchable[pick % Math.max(1, fetchable.length)];
    if (job === undefined) return;
    this.queue.markFetched(job);
    const late = replica.queueStopped ? ', from a fetch in flight when its queue stopped' : '';
    this.ledger.note(`${replica.workerId} fetches job ${job.id} (${cellName(job.cell)})${late}`);
    let decided = false;
    const delivery: CellDelivery = {
      acknowledge: () => {
        if (decided || replica.isGone()) return;
        decided = true;
        this.queue.complete(job);
      },
      retry: () => {
        if (decided || replica.isGone()) return;
        decided = true;
        this.queue.fail(job);
      },
    };
    replica.inFlight += 1;
    void replica.executor.execute(job.cell, delivery).finally(() => {
      delivery.acknowledge();
      replica.inFlight -= 1;
    });
  }
}

const replicaNumber = fc.nat({ max: 7 });
/** Steady: half the replicas die by themselves, at any of their first dozen calls; stormy: all, sooner. */
function replicaSpecOf(stormy: boolean): fc.Arbitrary<ReplicaSpec> {
  const lifetime = fc.record({ calls: fc.integer({ min: 1, max: stormy ? 8 : 12 }), midCall: fc.boolean() });
  return fc.record({
    capacity: fc.integer({ min: 1, max: 2 }),
    lifetime: stormy ? lifetime : fc.option(lifetime, { nil: undefined, freq: 2 }),
  });
}
const pick = fc.nat({ max: 7 });

/** How often each kind of command comes in a schedule. */
type Mix = Record<Command['kind'], number>;

/** Mostly progress, now and then a failure. */
const steadyMix: Mix = {
  step: 8,
  fetch: 4,
  flow: 4,
  advance: 4,
  vanish: 2,
  refuse: 1,
  'lose-reply': 1,
  'expire-jobs': 1,
  'shut-down': 1,
  join: 2,
};
/**
 * Replicas dying while they hold cells, new ones taking over, models that rarely answer: the
 * mix that reaches a cell's second and third strike (the steady one mostly finishes cells first).
 */
const stormyMix: Mix = {
  step: 2,
  fetch: 5,
  flow: 5,
  advance: 4,
  vanish: 5,
  refuse: 1,
  'lose-reply': 1,
  'expire-jobs': 2,
  'shut-down': 1,
  join: 5,
};

function commandOf(stormy: boolean): fc.Arbitrary<Command> {
  const mix = stormy ? stormyMix : steadyMix;
  return fc.oneof(
    {
      weight: mix.step,
      arbitrary: fc.record({
        kind: fc.constant('step' as const),
        replica: replicaNumber,
        pick,
        answer: fc.constantFrom<ModelAnswer>('valid', 'valid', 'invalid'),
      }),
    },
    {
      weight: mix.fetch,
      arbitrary: fc.record({ kind: fc.constant('fetch' as const), replica: replicaNumber, pick }),
    },
    {
      weight: mix.flow,
      arbitrary: fc.record({
        kind: fc.constant('flow' as const),
        replica: replicaNumber,
        model: stormy ? fc.constant(false) : fc.boolean(),
      }),
    },
    {
      weight: mix.advance,
      arbitrary: fc.record({
        kind: fc.constant('advance' as const),
        percentOfLease: fc.integer({ min: 5, max: 200 }),
      }),
    },
    {
      weight: mix.vanish,
      arbitrary: fc.record({
        kind: fc.constant('vanish' as const),
        replica: replicaNumber,
        working: stormy ? fc.constant(true) : fc.boolean(),
        pick,
        afterHeldCall: fc.boolean(),
      }),
    },
    {
      weight: mix.refuse,
      arbitrary: fc.record({ kind: fc.constant('refuse' as const), replica: replicaNumber, pick }),
    },
    {
      weight: mix['lose-reply'],
      arbitrary: fc.record({ kind: fc.constant('lose-reply' as const), replica: replicaNumber, pick }),
    },
    { weight: mix['expire-jobs'], arbitrary: fc.record({ kind: fc.constant('expire-jobs' as const) }) },
    {
      weight: mix['shut-down'],
      arbitrary: fc.record({
        kind: fc.constant('shut-down' as const),
        replica: replicaNumber,
        fetchInFlight: fc.boolean(),
      }),
    },
    {
      weight: mix.join,
      arbitrary: fc.record({ kind: fc.constant('join' as const), replica: replicaSpecOf(stormy) }),
    },
  );
}

/** Two to four cells, two or three replicas to start with, steady or stormy. */
function scenarioOf(stormy: boolean): fc.Arbitrary<Scenario> {
  return fc
    .record({
      leaseMs: fc.integer({ min: 300, max: 3_000 }),
      shape: fc.constantFrom(
        { caseCount: 1, targetCount: 2 },
        { caseCount: 2, targetCount: 1 },
        { caseCount: 2, targetCount: 2 },
      ),
      replicas: fc.array(replicaSpecOf(stormy), { minLength: 2, maxLength: 3 }),
      // `size: 'max'`: by default fast-check keeps arrays to ten items, too few to reach a third strike.
      schedule: fc.array(commandOf(stormy), { maxLength: 80, size: 'max' }),
    })
    .map(({ shape, ...rest }) => ({ ...rest, ...shape }));
}

const scenario = fc.oneof(scenarioOf(false), scenarioOf(true));

/** A migrated database file, copied for each run (migrating one per run would take most of the time). */
let folder = '';
let template = '';
let databases = 0;

async function runScenario(scenario: Scenario): Promise<void> {
  databases += 1;
  const file = join(folder, `run-${databases}.db`);
  await copyFile(template, file);
  const database = openDatabase({ url: `sqlite:${file}` });
  // Only timers and the date: `setImmediate` stays real, it is how promise jobs are let run.
  vi.useFakeTimers({
    toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    now: START_OF_TIME,
  });
  try {
    const repositories = createRepositories(database, { clock: () => Date.now() });
    const simulation = new Simulation(repositories, scenario.leaseMs);
    // Up before the run: their start-up passes find nothing to resume; their lives count from the run.
    for (const spec of scenario.replicas) simulation.join({ ...spec, lifetime: undefined });
    for (const replica of simulation.replicas)
      for (let next = replica.held[0]; next !== undefined; next = replica.held[0]) {
        await next.release('reply', 'valid');
        await letPromisesRun();
      }
    simulation.replicas.forEach((replica, index) => {
      replica.lifetime = scenario.replicas[index]?.lifetime;
    });
    await simulation.startRun(scenario.caseCount, scenario.targetCount);
    for (const step of scenario.schedule) {
      await simulation.apply(step);
      await simulation.checkSafety();
    }
    await simulation.drain();
    await simulation.checkSafety();
    await simulation.checkLiveness();
  } finally {
    // Drops every timer a replica left behind (the dead ones' heartbeats, deadlines).
    vi.useRealTimers();
    await database.destroy();
    for (const leftover of [file, `${file}-wal`, `${file}-shm`]) await rm(leftover, { force: true });
  }
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'agentdesk-cell-leases-'));
  template = join(folder, 'template.db');
  const database = openDatabase({ url: `sqlite:${template}` });
  await migrateToLatest(database);
  // Closing the only connection folds the write-ahead log into the file, so a copy is complete.
  await database.destroy();
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the cell queue and leases (real executor, recovery and repository on SQLite)', () => {
  it('ends every run with each cell finished once, whatever replicas vanish and when', async () => {
    await fc.assert(fc.asyncProperty(scenario, runScenario), { numRuns: RUNS });
  });
});
