import type { ProviderEmulator, ScriptedReply } from '@agentdesk/provider-emulator';
import { createRepositories, type AppDatabase, type QaRunCell, type Repositories } from '@agentdesk/storage';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PgBossCellQueue } from '../../../src/qa/run-engine';
import { createLocalUser } from '../../support/fixtures';
import type { ApiProcess } from '../../reliability/support/api-process';
import {
  crashReplica,
  useReplicasOnPostgres,
  type ReplicasOnPostgres,
} from '../../reliability/support/replicas-on-postgres';
import { answerSchema, createRun, describeRun, expectCountsMatchCells, waitFor } from './support/engine-app';
import {
  applicationsWaitingOnLock,
  backendsOf,
  cellJobsOf,
  endBackendsOf,
  holdPgBossMaintenance,
  lockCellJobRows,
  lockCellRow,
  lockSuiteVersionsTable,
  releaseAll,
  type CellJobRow,
  type HeldLock,
} from './support/postgres-locks';

// 4 s, as in replica-crash: at 2 s, on 2 cores at load 19, a replica's heartbeat or the sweep's
// view of a blocked claim lapsed while the test held it at a step, and the cell was claimed again
// (attempts 3: still counted once, but no longer the kill point the test names).
const leaseMs = 4_000;
const pgBossSchema = 'pgboss';
/**
 * One cell in flight per replica: the replica stopped at a kill point fetches no other job, so
 * nothing but the survivor touches the cell once the doomed one is dead.
 */
const replicaSettings = {
  AGENTDESK_QA_CONCURRENCY: '1',
  AGENTDESK_QA_CELLS_IN_FLIGHT: '1',
  AGENTDESK_QA_CELL_LEASE_MS: String(leaseMs),
  AGENTDESK_QA_PGBOSS_SCHEMA: pgBossSchema,
};
/** The `application_name` of each replica's connections: how `pg_stat_activity` tells them apart. */
const replicaNames = ['kill-points-replica-1', 'kill-points-replica-2'] as const;
/** The test's own lock-holding sessions (see `support/postgres-locks.ts`), shown in wait states too. */
const lockHolderName = 'kill-point-lock-holder';

/** One case on one target: one cell (0/0), so the kill point is that of the whole run. */
const oneCellSuite = {
  name: 'kill points',
  targets: [{ model: 'gpt-test' }],
  cases: [
    {
      id: 'only-case',
      prompt: 'is it done?',
      schema: answerSchema,
      assertions: [{ kind: 'equals' as const, pointer: '/answer', value: 'yes' }],
    },
  ],
};
/**
 * Probes (25 ms apart) the survivor gets to end the run after the kill: 30 s on a quiet machine,
 * where it takes a few (a lease of 4 s, a sweep and a pg-boss maintenance every second, a retry
 * delay of one). Far below the run's two minutes on purpose: a job left active by a dead replica
 * that came back only after pg-boss's default expiry (60 s, plus 15 s to its maintenance) fails.
 */
const recoveryPatience = 1_200;
/** A JSON answer generated from the case's schema: the cell passes. */
const passingAnswer: ScriptedReply = { kind: 'json', times: 'always' };

// The statements a replica is stopped at, as they reach PostgreSQL (`pg_stat_activity.query`).
/** `QaRunsRepository.claimCell`. */
const claimStatement = /^update "qa_run_cells" set "status" = \$1, "attempts" = /;
/** The cell UPDATE of `QaRunsRepository.finishCell`, run after its transaction locked the run's row. */
const finishStatement = /^update "qa_run_cells" set "status" = \$1, "latency_ms" = /;
/** `QaSuitesRepository.version`, which `RunDirectory` runs after the claim and before the model call. */
const suiteVersionRead = /^select \* from "qa_suite_versions"/;
/** pg-boss 10's `completeJobs` (plans.js), which acknowledges a job. */
const jobCompletion = new RegExp(`UPDATE ${pgBossSchema}\\.job\\s+SET completed_on = now\\(\\)`);

/** An API process on the test's database, named by the `application_name` of its connections. */
interface Replica {
  readonly name: string;
  readonly process: ApiProcess;
  /** The part of its worker id (`host:pid:random`) written on the cells it claims. */
  readonly workerMark: string;
}

/** What a kill point works with to line a replica up. */
interface Stage {
  readonly url: string;
  readonly runId: string;
  readonly emulator: ProviderEmulator;
  /** Takes a lock, kept until the doomed replica is dead (or the test ends). */
  hold(lock: Promise<HeldLock>): Promise<HeldLock>;
  /** Queues the run's cell in the shared pg-boss queue, as the API's route does. */
  enqueueCell(): Promise<void>;
  /** Waits for a replica whose backend waits on a lock while running `statement`; that replica. */
  replicaWaitingOn(statement: RegExp, what: string): Promise<Replica>;
  /** `waitFor` printing the stage (`attempts`: the run's patience unless given). */
  waitUntil<T>(probe: () => Promise<T | undefined>, what: string, attempts?: number): Promise<T>;
  cell(): Promise<QaRunCell>;
  /** The job the producer enqueued, which the doomed replica fetched. */
  firstJob(): Promise<CellJobRow | undefined>;
  /** The replica whose worker id the cell carries. */
  claimantOf(cell: QaRunCell): Replica | undefined;
}

/** Where a replica is killed, how it is held there, and what the run must show afterwards. */
interface KillPoint {
  readonly name: string;
  /** The emulator's answers, in order. */
  readonly replies: readonly ScriptedReply[];
  /** Enqueues the cell and holds the replica that takes it at the kill point; that replica. */
  park(stage: Stage): Promise<Replica>;
  /** The cell's status and its first job's pg-boss state when the replica is killed. */
  readonly atKill: { readonly cell: QaRunCell['status']; readonly job: string };
  readonly expected: {
    /** Whose claim the finished cell carries. */
    readonly finishedBy: 'doomed' | 'survivor';
    readonly attempts: number;
    /** Model calls the emulator received for the cell (a call the dead replica made counts). */
    readonly modelCalls: number;
    /** Whether pg-boss handed the doomed replica's job out again (it was still active at the kill). */
    readonly jobDeliveredAgain: boolean;
  };
}

const killPoints: readonly KillPoint[] = [
  {
    name: 'after pg-boss fetched the job, before the cell is claimed',
    replies: [passingAnswer],
    async park(stage) {
      // No job can expire while the claim is held back, so the doomed replica keeps it active.
      await stage.hold(holdPgBossMaintenance(stage.url, pgBossSchema));
      await stage.hold(lockCellRow(stage.url, stage.runId, 0, 0));
      await stage.enqueueCell();
      return stage.replicaWaitingOn(claimStatement, 'its claim of the cell');
    },
    // Only the job's expiry can bring the cell back: a running replica re-enqueues pending cells
    // at its start only.
    atKill: { cell: 'pending', job: 'active' },
    expected: { finishedBy: 'survivor', attempts: 1, modelCalls: 1, jobDeliveredAgain: true },
  },
  {
    name: 'after the cell is claimed, while its model call is out',
    replies: [{ kind: 'hang' }, passingAnswer],
    async park(stage) {
      await stage.enqueueCell();
      return stage.waitUntil(async () => {
        const cell = await stage.cell();
        const job = await stage.firstJob();
        const calling = cell.status === 'running' && stage.emulator.requests.length === 1;
        return calling && job?.state === 'completed' ? stage.claimantOf(cell) : undefined;
      }, 'a replica holding the cell, its job acknowledged and its model call hanging');
    },
    atKill: { cell: 'running', job: 'completed' },
    expected: { finishedBy: 'survivor', attempts: 2, modelCalls: 2, jobDeliveredAgain: false },
  },
  {
    name: 'while the cell is being finished (its finishing UPDATE waits)',
    replies: [passingAnswer],
    async park(stage) {
      // Held just after its claim, with its lease heartbeat running, the replica cannot lose the
      // cell to the survivor while the cell's row is locked; then it finishes into that lock.
      const suiteVersions = await stage.hold(lockSuiteVersionsTable(stage.url));
      await stage.enqueueCell();
      const doomed = await stage.replicaWaitingOn(suiteVersionRead, 'its read of the suite, after its claim');
      await stage.waitUntil(
        async () => ((await stage.firstJob())?.state === 'completed' ? true : undefined),
        'the job to be acknowledged after the claim',
      );
      await stage.hold(lockCellRow(stage.url, stage.runId, 0, 0));
      await suiteVersions.release();
      const finishing = await stage.replicaWaitingOn(finishStatement, 'its finishing UPDATE of the cell');
      expect(finishing.name).toBe(doomed.name);
      return doomed;
    },
    atKill: { cell: 'running', job: 'completed' },
    expected: { finishedBy: 'survivor', attempts: 2, modelCalls: 2, jobDeliveredAgain: false },
  },
  {
    name: 'after the cell is finished, before pg-boss completed its job',
    replies: [passingAnswer],
    async park(stage) {
      await stage.hold(holdPgBossMaintenance(stage.url, pgBossSchema));
      const cellRow = await stage.hold(lockCellRow(stage.url, stage.runId, 0, 0));
      await stage.enqueueCell();
      const doomed = await stage.replicaWaitingOn(claimStatement, 'its claim of the cell');
      // Between the fetch and the completion: the fetch skips locked job rows, the completion waits.
      await stage.hold(lockCellJobRows(stage.url, pgBossSchema, stage.runId));
      await cellRow.release();
      await stage.waitUntil(
        async () => ((await stage.cell()).finishedAt !== null ? true : undefined),
        'the doomed replica to finish the cell',
      );
      const completing = await stage.replicaWaitingOn(jobCompletion, 'its completion of the job');
      expect(completing.name).toBe(doomed.name);
      return doomed;
    },
    // The job comes back after its expiry: the survivor's claim finds the cell finished.
    atKill: { cell: 'passed', job: 'active' },
    expected: { finishedBy: 'doomed', attempts: 1, modelCalls: 1, jobDeliveredAgain: true },
  },
];

/**
 * Two real API processes on one PostgreSQL share the pg-boss queue of a one-cell run. The test
 * holds, in its own transaction, the lock the next step of the replica that took the cell needs,
 * waits until `pg_stat_activity` shows that replica's backend waiting for it, `kill -9`s the
 * replica there and releases the lock: the other replica, running all along with short leases,
 * must end the run with the cell finished and counted exactly once. Which of the two takes the
 * cell is up to pg-boss; the one found at the kill point is the one killed.
 */
describe('a QA run whose replica is killed at a chosen point (postgres)', () => {
  const cluster = useReplicasOnPostgres();
  const heldLocks: HeldLock[] = [];
  // Registered after the cluster's hooks, so it runs before them: no lock outlives the database.
  afterEach(() => releaseAll(heldLocks));

  for (const point of killPoints)
    it(`kill -9 ${point.name}: the run ends with its cell finished and counted once`, async () => {
      const postgres = cluster.postgres();
      const emulator = cluster.emulator();
      const repositories = createRepositories(postgres.database);
      const qa = await createLocalUser(repositories, 'quality');
      const replicas = await startNamedReplicas(cluster, postgres.url);
      const run = await createRun(repositories, qa.id, oneCellSuite);
      emulator.script(...point.replies);
      const stage = stageFor({
        url: postgres.url,
        database: postgres.database,
        repositories,
        runId: run.id,
        emulator,
        replicas,
        heldLocks,
      });

      const doomed = await point.park(stage);
      const survivor = replicas.find((replica) => replica !== doomed)!;
      const jobAtKill = await stage.firstJob();
      expect({ cell: (await stage.cell()).status, job: jobAtKill?.state }).toEqual(point.atKill);
      expect(await crashReplica(doomed.process)).toBe('SIGKILL');
      await endBackendsOf(postgres.database, doomed.name, { state: stage.describe });
      await releaseAll(heldLocks);

      // Ended, and no job left to hand out: a redelivery still to come could not change the counts.
      const ended = await stage.waitUntil(
        async () => {
          const current = await repositories.qaRuns.get(run.id);
          const jobs = await cellJobsOf(postgres.database, pgBossSchema, run.id);
          return current.status !== 'running' && jobs.every((job) => job.state === 'completed')
            ? current
            : undefined;
        },
        'the run to end with every job of its cell completed',
        recoveryPatience,
      );
      expect(ended.status).toBe('completed');
      const cells = await repositories.qaRuns.cells(run.id);
      expectCountsMatchCells(ended, cells);
      expect(ended.counts).toMatchObject({ total: 1, done: 1, passed: 1 });
      const [cell] = cells;
      expect(cell).toMatchObject({ status: 'passed', attempts: point.expected.attempts });
      const finisher = point.expected.finishedBy === 'doomed' ? doomed : survivor;
      expect(cell!.claimedBy).toContain(finisher.workerMark);
      expect(emulator.requests).toHaveLength(point.expected.modelCalls);
      const jobAtEnd = await stage.firstJob();
      expect(jobAtEnd?.state).toBe('completed');
      expect(jobAtEnd!.retryCount > jobAtKill!.retryCount).toBe(point.expected.jobDeliveredAgain);
      // Two API processes starting on 2 cores beside the rest of CI, then a lease or two.
    }, 120_000);
});

/** Starts one replica per name, each connecting with its name as `application_name`. */
async function startNamedReplicas(cluster: ReplicasOnPostgres, url: string): Promise<Replica[]> {
  const replicas = await Promise.all(
    replicaNames.map(async (name): Promise<Replica> => {
      const [process] = await cluster.startReplicas(1, {
        ...replicaSettings,
        DATABASE_URL: withApplicationName(url, name),
      });
      return { name, process: process!, workerMark: `:${process!.child.pid}:` };
    }),
  );
  await waitFor(
    () =>
      replicas.every((replica) => replica.process.output().includes('QA suite run engine started'))
        ? true
        : undefined,
    'both replicas’ run engines to start',
    {
      state: () =>
        replicas.map((replica) => ({ name: replica.name, output: replica.process.output().slice(-2_000) })),
    },
  );
  return replicas;
}

function withApplicationName(url: string, name: string): string {
  const named = new URL(url);
  named.searchParams.set('application_name', name);
  return named.toString();
}

interface StageParts {
  readonly url: string;
  readonly database: AppDatabase;
  readonly repositories: Repositories;
  readonly runId: string;
  readonly emulator: ProviderEmulator;
  readonly replicas: readonly Replica[];
  /** Where held locks are kept for the test to release. */
  readonly heldLocks: HeldLock[];
}

function stageFor(parts: StageParts): Stage & { describe(): Promise<unknown> } {
  const { url, database, repositories, runId, emulator, replicas, heldLocks } = parts;
  const names = replicas.map((replica) => replica.name);
  // The API's route enqueues the same way: a job in the shared pg-boss queue, expiring after a lease.
  const producer = new PgBossCellQueue({
    database,
    schema: pgBossSchema,
    capacity: 1,
    leaseMs,
    logger: pino({ level: 'silent' }),
  });
  /** What a wait that timed out saw: the run's cells, its jobs, the replicas' backends, the calls. */
  const describe = async () => ({
    run: await describeRun(repositories, runId),
    cells: (await repositories.qaRuns.cells(runId)).map((cell) => ({
      cell: `${cell.caseIndex}/${cell.targetIndex}`,
      status: cell.status,
      claimedBy: cell.claimedBy,
      attempts: cell.attempts,
    })),
    jobs: await cellJobsOf(database, pgBossSchema, runId),
    replicas: replicas.map((replica) => ({ name: replica.name, workerMark: replica.workerMark })),
    backends: (await backendsOf(database, [...names, lockHolderName])).map((backend) => ({
      ...backend,
      query: backend.query.replace(/\s+/g, ' ').slice(0, 120),
    })),
    modelCalls: emulator.requests.length,
  });
  const waitUntil = <T>(probe: () => Promise<T | undefined>, what: string, attempts?: number) =>
    waitFor(probe, what, { state: describe, ...(attempts !== undefined && { attempts }) });
  const cell = async () => {
    const [only] = await repositories.qaRuns.cells(runId);
    if (only === undefined) throw new Error(`run ${runId} has no cell`);
    return only;
  };
  return {
    url,
    runId,
    emulator,
    describe,
    waitUntil,
    cell,
    async hold(lock) {
      const held = await lock;
      heldLocks.push(held);
      return held;
    },
    enqueueCell: () => producer.enqueue([{ runId, caseIndex: 0, targetIndex: 0 }]),
    replicaWaitingOn: (statement, what) =>
      waitUntil(async () => {
        const waiting = await applicationsWaitingOnLock(database, names, statement);
        // Two would mean the lock holds back more than the one replica that took the cell.
        return waiting.length === 1 ? replicas.find((replica) => replica.name === waiting[0]) : undefined;
      }, `a replica waiting on a lock at ${what}`),
    firstJob: async () => (await cellJobsOf(database, pgBossSchema, runId))[0],
    claimantOf: (claimed) =>
      replicas.find((replica) => claimed.claimedBy?.includes(replica.workerMark) === true),
  };
}
