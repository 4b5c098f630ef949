import { createRepositories } from '@agentdesk/storage';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PgBossCellQueue } from '../../../src/qa/run-engine';
import { createLocalUser } from '../../support/fixtures';
import type { ApiProcess } from '../../reliability/support/api-process';
import { crashReplica, useReplicasOnPostgres } from '../../reliability/support/replicas-on-postgres';
import {
  allCells,
  answerSchema,
  createRun,
  describeRun,
  expectCountsMatchCells,
  threeTargets,
  waitFor,
  waitForRunEnd,
} from './support/engine-app';

const caseCount = 12;

/**
 * Three real API processes on one PostgreSQL share the pg-boss queue of a run's cells. One is
 * `kill -9`ed with cells in flight and never restarted: the survivors take its cells over once
 * their leases pass, and the run completes with every cell counted once.
 */
describe('a QA suite run across three replicas, one killed mid-run (postgres)', () => {
  const cluster = useReplicasOnPostgres();

  it('completes the run on the survivors: every cell finished once', async () => {
    const postgres = cluster.postgres();
    const emulator = cluster.emulator();
    const repositories = createRepositories(postgres.database);
    const qa = await createLocalUser(repositories, 'quality');
    emulator.script({ kind: 'json', delayMs: 700, times: 'always' });
    const replicas = await cluster.startReplicas(3, {
      AGENTDESK_QA_CONCURRENCY: '1',
      AGENTDESK_QA_CELLS_IN_FLIGHT: '4',
      AGENTDESK_QA_CELL_LEASE_MS: '2000',
    });
    const [doomed] = replicas as [ApiProcess, ApiProcess, ApiProcess];
    await waitFor(
      () =>
        replicas.every((replica) => replica.output().includes('QA suite run engine started'))
          ? true
          : undefined,
      'every replica’s run engine',
    );

    const run = await createRun(repositories, qa.id, {
      name: 'replicas',
      targets: threeTargets,
      cases: Array.from({ length: caseCount }, (_, index) => ({
        id: `case-${index}`,
        prompt: `question ${index}`,
        schema: answerSchema,
        assertions: [{ kind: 'equals' as const, pointer: '/answer', value: 'yes' }],
      })),
    });
    // The API's own route enqueues the same way: jobs in the shared pg-boss queue.
    const producer = new PgBossCellQueue({
      database: postgres.database,
      schema: 'pgboss',
      capacity: 1,
      leaseMs: 2_000,
      logger: pino({ level: 'silent' }),
    });
    await producer.enqueue(allCells(run, 3).map((cell) => ({ runId: run.id, ...cell })));

    const doomedWorker = `:${doomed.child.pid}:`;
    const workersSeen = new Set<string>();
    await waitFor(
      async () => {
        const cells = await repositories.qaRuns.cells(run.id);
        for (const cell of cells) if (cell.claimedBy !== null) workersSeen.add(cell.claimedBy);
        const doomedHolds = cells.some(
          (cell) => cell.status === 'running' && cell.claimedBy?.includes(doomedWorker),
        );
        return doomedHolds && cells.some((cell) => cell.finishedAt !== null) ? true : undefined;
      },
      `the doomed replica (${doomedWorker}) holding cells mid-run`,
      {
        state: () => describeRun(repositories, run.id),
      },
    );
    await crashReplica(doomed);

    const ended = await waitForRunEnd(repositories, run.id);
    expect(ended.status).toBe('completed');
    expect(ended.counts).toMatchObject({ total: caseCount * 3, done: caseCount * 3, passed: caseCount * 3 });
    const cells = await repositories.qaRuns.cells(run.id);
    expectCountsMatchCells(ended, cells);
    for (const cell of cells) workersSeen.add(cell.claimedBy!);
    // Every replica worked on the run, and the dead one's cells were claimed again by a survivor.
    expect(workersSeen.size).toBe(3);
    expect(cells.some((cell) => cell.attempts === 2)).toBe(true);
    expect(cells.every((cell) => !cell.claimedBy!.includes(doomedWorker) || cell.attempts === 1)).toBe(true);
    // Three API processes starting and working on 2 cores beside the rest of CI: ~50 s quiet, more loaded.
  }, 240_000);
});
