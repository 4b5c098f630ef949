import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json';
import type { QaCellStatus, QaFinishedCellStatus, QaRunCell, QaSuiteRun } from '../models/qa-run';
import { CANCELLED_CELL_REASON, type QaCellOutcome } from '../repositories/qa-runs-repository';
import { StorageErrorCode } from '../storage-error';
import { expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

const LEASE_MS = 15_000;

function definitionOf(name: string, caseCount: number): JsonObject {
  return {
    name,
    targets: [{ model: 'gpt-test' }, { model: 'claude-test', label: 'claude' }],
    cases: Array.from({ length: caseCount }, (_, index) => ({
      id: `case-${index}`,
      prompt: `prompt ${index}`,
      schema: { type: 'object' },
    })),
  };
}

function outcome(status: QaFinishedCellStatus, overrides: Partial<QaCellOutcome> = {}): QaCellOutcome {
  return {
    status,
    latencyMs: 120,
    costMicros: 42,
    inputTokens: 10,
    outputTokens: 5,
    failedKinds: status === 'failed' ? ['schema'] : [],
    reason: status === 'error' ? 'the provider answered 500' : null,
    result: { text: '{"ok":true}', assertions: [] },
    ...overrides,
  };
}

/** A worker's go at a cell: it claims the cell and, when it won the claim, finishes it with `status`. */
async function claimAndFinish(
  database: TestDatabase,
  runId: string,
  cell: { caseIndex: number; targetIndex: number },
  worker: string,
  status: QaFinishedCellStatus,
): Promise<void> {
  const { qaRuns } = database.repositories;
  const claimed = await qaRuns.claimCell(runId, cell.caseIndex, cell.targetIndex, worker, LEASE_MS);
  if (claimed !== undefined)
    await qaRuns.finishCell(runId, cell.caseIndex, cell.targetIndex, worker, outcome(status));
}

/** A suite at version 1 and a run of `caseCount` cases × `targetCount` targets, all cells pending. */
async function startRun(database: TestDatabase, caseCount = 2, targetCount = 2, name = 'invoices') {
  const { qaSuites, qaRuns } = database.repositories;
  const { suite } = await qaSuites.create({
    name,
    description: null,
    definition: definitionOf(name, caseCount),
    caseCount,
    targetCount,
    createdBy: 'u-qa',
    note: null,
  });
  const cells = Array.from({ length: caseCount * targetCount }, (_, index) => ({
    caseIndex: Math.floor(index / targetCount),
    targetIndex: index % targetCount,
    caseId: `case-${Math.floor(index / targetCount)}`,
  }));
  const run = await qaRuns.create({
    suiteId: suite.id,
    suiteVersion: 1,
    createdBy: 'u-qa',
    options: {},
    cells,
  });
  return { suite, run, cells };
}

const counterOf = { passed: 'passed', failed: 'failed', error: 'errored', cancelled: 'cancelled' } as const;

/** The counts the run must show for these cells: one per finished cell, by status. */
function countsOf(cells: readonly { status: QaCellStatus }[]): QaSuiteRun['counts'] {
  const counts = { total: cells.length, done: 0, passed: 0, failed: 0, errored: 0, cancelled: 0 };
  for (const cell of cells) {
    if (cell.status === 'pending' || cell.status === 'running') continue;
    counts.done += 1;
    counts[counterOf[cell.status]] += 1;
  }
  return counts;
}

async function expectCountsMatchCells(database: TestDatabase, runId: string): Promise<QaSuiteRun> {
  const run = await database.repositories.qaRuns.get(runId);
  const cells = await database.repositories.qaRuns.cells(runId);
  expect(run.counts).toEqual(countsOf(cells));
  return run;
}

/** QA suites, versions, runs and the cell lease protocol (issue 21). */
export function describeQaRepositoriesContract(factory: TestDatabaseFactory): void {
  describe('QA suites', () => {
    const current = useTestDatabase(factory);

    it('creates a suite at version 1 and keeps the definition verbatim, key order included', async () => {
      const { qaSuites } = current().repositories;
      const definition = {
        name: 'orders',
        targets: [{ model: 'm' }],
        cases: [{ id: 'z', prompt: 'p', schema: {} }],
      };
      const { suite, version } = await qaSuites.create({
        name: 'orders',
        description: 'order extraction',
        definition,
        caseCount: 1,
        targetCount: 1,
        createdBy: 'u-qa',
        note: 'first',
      });
      expect(suite).toMatchObject({
        name: 'orders',
        description: 'order extraction',
        latestVersion: 1,
        caseCount: 1,
      });
      expect(version).toMatchObject({ suiteId: suite.id, version: 1, note: 'first', createdBy: 'u-qa' });
      expect(await qaSuites.get(suite.id)).toEqual(suite);
      expect(await qaSuites.findByName('orders')).toEqual(suite);
      expect(await qaSuites.findByName('Orders')).toBeUndefined();
      const stored = await qaSuites.version(suite.id, 1);
      expect(JSON.stringify(stored.definition)).toBe(JSON.stringify(definition));
    });

    it('refuses a second suite of the same name as a conflict', async () => {
      const database = current();
      await startRun(database, 1, 1, 'taken');
      await expectStorageError(
        database.repositories.qaSuites.create({
          name: 'taken',
          description: null,
          definition: definitionOf('taken', 1),
          caseCount: 1,
          targetCount: 1,
          createdBy: 'u-other',
          note: null,
        }),
        StorageErrorCode.Conflict,
        'qa-suite',
      );
    });

    it('saves versions from the latest only, lists them newest first, and refuses stale or taken names', async () => {
      const database = current();
      const { qaSuites } = database.repositories;
      const { suite } = await startRun(database, 1, 1, 'alpha');
      await startRun(database, 1, 1, 'beta');
      const save = (baseVersion: number, name = 'alpha', note: string | null = null) =>
        qaSuites.saveVersion({
          suiteId: suite.id,
          baseVersion,
          name,
          description: 'edited',
          definition: definitionOf(name, 3),
          caseCount: 3,
          targetCount: 2,
          createdBy: 'u-editor',
          note,
        });
      database.clock.advance(1_000);
      const saved = await save(1, 'alpha', 'three cases');
      expect(saved.suite).toMatchObject({ latestVersion: 2, caseCount: 3, description: 'edited' });
      expect(saved.suite.updatedAt.getTime()).toBe(database.clock.now());
      expect(saved.version).toMatchObject({ version: 2, note: 'three cases', createdBy: 'u-editor' });
      await expectStorageError(save(1), StorageErrorCode.Conflict, 'qa-suite-version');
      await expectStorageError(save(2, 'beta'), StorageErrorCode.Conflict, 'qa-suite');
      const renamed = await save(2, 'gamma');
      expect(renamed.suite.name).toBe('gamma');
      expect((await qaSuites.versions(suite.id)).map((version) => version.version)).toEqual([3, 2, 1]);
      expect((await qaSuites.version(suite.id, 1)).definition).toEqual(definitionOf('alpha', 1));
      await expectStorageError(qaSuites.version(suite.id, 9), StorageErrorCode.NotFound, 'qa-suite-version');
      await expectStorageError(
        qaSuites.saveVersion({
          ...saved.suite,
          suiteId: missingId,
          baseVersion: 1,
          definition: {},
          createdBy: 'x',
          note: null,
        }),
        StorageErrorCode.NotFound,
        'qa-suite',
      );
      await expectStorageError(qaSuites.get(missingId), StorageErrorCode.NotFound, 'qa-suite');
    });

    it('lets exactly one of two concurrent saves from one base version win', async () => {
      const database = current();
      const { suite } = await startRun(database, 1, 1, 'race');
      const attempts = await Promise.allSettled(
        ['first', 'second', 'third'].map((note) =>
          database.repositories.qaSuites.saveVersion({
            suiteId: suite.id,
            baseVersion: 1,
            name: 'race',
            description: null,
            definition: definitionOf('race', 2),
            caseCount: 2,
            targetCount: 2,
            createdBy: 'u-qa',
            note,
          }),
        ),
      );
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
      expect(
        (await database.repositories.qaSuites.versions(suite.id)).map((version) => version.version),
      ).toEqual([2, 1]);
    });

    it('lists suites newest first, page by page', async () => {
      const database = current();
      for (const name of ['one', 'two', 'three']) {
        await startRun(database, 1, 1, name);
        database.clock.advance(10);
      }
      const first = await database.repositories.qaSuites.list({ limit: 2 });
      expect(first.items.map((suite) => suite.name)).toEqual(['three', 'two']);
      const second = await database.repositories.qaSuites.list({ limit: 2, cursor: first.nextCursor });
      expect(second.items.map((suite) => suite.name)).toEqual(['one']);
      expect(second.nextCursor).toBeNull();
    });
  });

  describe('QA runs', () => {
    const current = useTestDatabase(factory);

    it('creates a run with every cell pending and reads cells in case, target order', async () => {
      const database = current();
      const { run } = await startRun(database, 2, 2);
      expect(run).toMatchObject({ status: 'running', suiteVersion: 1, finishedAt: null, options: {} });
      expect(run.counts).toEqual({ total: 4, done: 0, passed: 0, failed: 0, errored: 0, cancelled: 0 });
      const cells = await database.repositories.qaRuns.cells(run.id);
      expect(cells.map((cell) => [cell.caseIndex, cell.targetIndex, cell.caseId, cell.status])).toEqual([
        [0, 0, 'case-0', 'pending'],
        [0, 1, 'case-0', 'pending'],
        [1, 0, 'case-1', 'pending'],
        [1, 1, 'case-1', 'pending'],
      ]);
      expect(await database.repositories.qaRuns.unfinishedCells(run.id)).toHaveLength(4);
      expect(await database.repositories.qaRuns.running()).toEqual([run]);
    });

    it('refuses a run of a version the suite does not have', async () => {
      const database = current();
      const { suite } = await startRun(database, 1, 1);
      await expectStorageError(
        database.repositories.qaRuns.create({
          suiteId: suite.id,
          suiteVersion: 7,
          createdBy: 'u',
          options: {},
          cells: [],
        }),
        StorageErrorCode.NotFound,
        'qa-suite-version',
      );
      await expectStorageError(
        database.repositories.qaRuns.get(missingId),
        StorageErrorCode.NotFound,
        'qa-run',
      );
    });

    it('creates a run of 6,000 cells in one go', async () => {
      const database = current();
      const { run } = await startRun(database, 3_000, 2, 'big');
      expect(run.counts.total).toBe(6_000);
      const cells = await database.repositories.qaRuns.cells(run.id);
      expect(cells).toHaveLength(6_000);
      expect(cells.at(-1)).toMatchObject({
        caseIndex: 2_999,
        targetIndex: 1,
        caseId: 'case-2999',
        status: 'pending',
      });
    });

    it('claims, extends, finishes and completes the run with the last cell', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { run } = await startRun(database, 1, 2);
      const claimed = await qaRuns.claimCell(run.id, 0, 0, 'worker-a', LEASE_MS);
      expect(claimed).toMatchObject({ status: 'running', attempts: 1, claimedBy: 'worker-a' });
      expect(claimed?.leaseUntil?.getTime()).toBe(database.clock.now() + LEASE_MS);
      expect(await qaRuns.claimCell(run.id, 0, 0, 'worker-b', LEASE_MS)).toBeUndefined();
      database.clock.advance(5_000);
      expect(await qaRuns.extendLease(run.id, 0, 0, 'worker-a', LEASE_MS)).toBe('held');
      expect(await qaRuns.extendLease(run.id, 0, 0, 'worker-b', LEASE_MS)).toBe('lost');
      expect((await qaRuns.cell(run.id, 0, 0)).leaseUntil?.getTime()).toBe(database.clock.now() + LEASE_MS);

      const finishedAt = database.clock.now();
      expect(await qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('failed', { reason: 'enum' }))).toBe(
        true,
      );
      const cell = await qaRuns.cell(run.id, 0, 0);
      expect(cell).toMatchObject({
        status: 'failed',
        latencyMs: 120,
        costMicros: 42,
        inputTokens: 10,
        outputTokens: 5,
        failedKinds: ['schema'],
        reason: 'enum',
        leaseUntil: null,
        result: { text: '{"ok":true}', assertions: [] },
      });
      expect(cell.finishedAt?.getTime()).toBe(finishedAt);
      expect(await qaRuns.cellByCaseId(run.id, 'case-0', 0)).toEqual(cell);
      expect(await qaRuns.cellByCaseId(run.id, 'case-9', 0)).toBeUndefined();
      await expectStorageError(qaRuns.cell(run.id, 5, 0), StorageErrorCode.NotFound, 'qa-run-cell');
      expect((await qaRuns.get(run.id)).status).toBe('running');

      database.clock.advance(1_000);
      await qaRuns.claimCell(run.id, 0, 1, 'worker-b', LEASE_MS);
      expect(await qaRuns.finishCell(run.id, 0, 1, 'worker-b', outcome('passed'))).toBe(true);
      const finished = await qaRuns.get(run.id);
      expect(finished).toMatchObject({
        status: 'completed',
        counts: { total: 2, done: 2, passed: 1, failed: 1 },
      });
      expect(finished.finishedAt?.getTime()).toBe(database.clock.now());
      expect(await qaRuns.running()).toEqual([]);
      expect(await qaRuns.unfinishedCells(run.id)).toEqual([]);
      expect((await qaRuns.cellsFinishedSince(run.id, finishedAt + 1)).map((c) => c.targetIndex)).toEqual([
        1,
      ]);
      expect((await qaRuns.cellsFinishedSince(run.id, finishedAt)).map((c) => c.targetIndex)).toEqual([0, 1]);
      expect(await qaRuns.claimCell(run.id, 0, 1, 'worker-c', LEASE_MS)).toBeUndefined();
    });

    it('counts a cell finished twice once', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { run } = await startRun(database, 1, 2);
      await qaRuns.claimCell(run.id, 0, 0, 'worker-a', LEASE_MS);
      const finishes = await Promise.all([
        qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('passed')),
        qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('passed')),
      ]);
      expect(finishes.filter(Boolean)).toHaveLength(1);
      expect(await qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('failed'))).toBe(false);
      expect((await expectCountsMatchCells(database, run.id)).counts).toMatchObject({ done: 1, passed: 1 });
    });

    it('gives a cell whose lease passed to another worker and refuses the first worker’s result', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { run } = await startRun(database, 1, 1);
      await qaRuns.claimCell(run.id, 0, 0, 'worker-a', LEASE_MS);
      database.clock.advance(LEASE_MS);
      expect(await qaRuns.claimCell(run.id, 0, 0, 'worker-b', LEASE_MS)).toBeUndefined();
      database.clock.advance(1);
      expect(await qaRuns.claimCell(run.id, 0, 0, 'worker-b', LEASE_MS)).toMatchObject({
        claimedBy: 'worker-b',
        attempts: 2,
      });
      expect(await qaRuns.extendLease(run.id, 0, 0, 'worker-a', LEASE_MS)).toBe('lost');
      expect(await qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('passed'))).toBe(false);
      expect(await qaRuns.finishCell(run.id, 0, 0, 'worker-b', outcome('error'))).toBe(true);
      const finished = await expectCountsMatchCells(database, run.id);
      expect(finished).toMatchObject({ status: 'completed', counts: { done: 1, errored: 1 } });
    });

    it('gives up a cell once, as an error with the reason', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { run } = await startRun(database, 1, 2);
      await qaRuns.claimCell(run.id, 0, 0, 'worker-a', LEASE_MS);
      const reason = 'the worker running it stopped 3 times';
      const giveUps = await Promise.all([
        qaRuns.giveUpCell(run.id, 0, 0, reason),
        qaRuns.giveUpCell(run.id, 0, 0, reason),
      ]);
      expect(giveUps.filter(Boolean)).toHaveLength(1);
      expect(await qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('passed'))).toBe(false);
      expect(await qaRuns.giveUpCell(run.id, 0, 1, reason)).toBe(true);
      expect(await qaRuns.cell(run.id, 0, 1)).toMatchObject({ status: 'error', reason, attempts: 0 });
      expect(await expectCountsMatchCells(database, run.id)).toMatchObject({
        status: 'completed',
        counts: { done: 2, errored: 2 },
      });
    });

    it('cancels: pending cells are cancelled and counted, a running cell is counted when it finishes', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { run } = await startRun(database, 2, 2);
      await qaRuns.claimCell(run.id, 0, 0, 'worker-a', LEASE_MS);
      await qaRuns.claimCell(run.id, 0, 1, 'worker-b', LEASE_MS);
      await qaRuns.finishCell(run.id, 0, 1, 'worker-b', outcome('passed'));
      database.clock.advance(100);
      const cancelled = await qaRuns.cancel(run.id);
      expect(cancelled).toMatchObject({
        status: 'cancelled',
        counts: { total: 4, done: 3, passed: 1, cancelled: 2 },
      });
      expect(cancelled.finishedAt?.getTime()).toBe(database.clock.now());
      expect(await qaRuns.cell(run.id, 1, 0)).toMatchObject({
        status: 'cancelled',
        reason: CANCELLED_CELL_REASON,
      });
      expect(await qaRuns.claimCell(run.id, 1, 1, 'worker-c', LEASE_MS)).toBeUndefined();
      expect(await qaRuns.extendLease(run.id, 0, 0, 'worker-a', LEASE_MS)).toBe('cancelled');
      expect(await qaRuns.running()).toEqual([]);

      database.clock.advance(100);
      expect(
        await qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('cancelled', { reason: 'cancelled' })),
      ).toBe(true);
      expect(await qaRuns.finishCell(run.id, 0, 0, 'worker-a', outcome('cancelled'))).toBe(false);
      const after = await expectCountsMatchCells(database, run.id);
      expect(after).toMatchObject({ status: 'cancelled', counts: { total: 4, done: 4, cancelled: 3 } });
      expect(after.finishedAt).toEqual(cancelled.finishedAt);
      // Cancelling again changes nothing.
      expect(await qaRuns.cancel(run.id)).toEqual(after);
      await expectStorageError(qaRuns.cancel(missingId), StorageErrorCode.NotFound, 'qa-run');
    });

    it('finishes the cells of a cancelled run whose worker stopped, once their lease passed', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { run } = await startRun(database, 1, 2);
      await qaRuns.claimCell(run.id, 0, 0, 'worker-dead', LEASE_MS);
      await qaRuns.claimCell(run.id, 0, 1, 'worker-alive', LEASE_MS);
      expect(await qaRuns.extendLease(run.id, 0, 1, 'worker-alive', LEASE_MS * 3)).toBe('held');
      await qaRuns.cancel(run.id);
      // Still leased: nothing to do yet.
      expect(await qaRuns.cancelStrandedCells()).toBe(0);
      database.clock.advance(LEASE_MS + 1);
      expect(await qaRuns.cancelStrandedCells()).toBe(1);
      expect(await qaRuns.cancelStrandedCells()).toBe(0);
      expect(await qaRuns.cell(run.id, 0, 0)).toMatchObject({ status: 'cancelled' });
      // The live worker still finishes its own cell, and the run ends with every cell counted once.
      expect(await qaRuns.finishCell(run.id, 0, 1, 'worker-alive', outcome('cancelled'))).toBe(true);
      expect(await qaRuns.finishCell(run.id, 0, 0, 'worker-dead', outcome('passed'))).toBe(false);
      const after = await expectCountsMatchCells(database, run.id);
      expect(after).toMatchObject({ status: 'cancelled', counts: { total: 2, done: 2, cancelled: 2 } });
    });

    it('lets exactly one of many concurrent claimers of a cell win', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { run } = await startRun(database, 1, 1);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, index) => qaRuns.claimCell(run.id, 0, 0, `worker-${index}`, LEASE_MS)),
      );
      const winners = claims.filter((claim) => claim !== undefined);
      expect(winners).toHaveLength(1);
      expect((await qaRuns.cell(run.id, 0, 0)).claimedBy).toBe(winners[0]?.claimedBy);
      expect((await qaRuns.cell(run.id, 0, 0)).attempts).toBe(1);
    });

    it('keeps the counts exact under concurrent claims, finishes, give-ups and a cancel', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const workers = ['worker-a', 'worker-b', 'worker-c'];
      const statuses: QaFinishedCellStatus[] = ['passed', 'failed', 'error'];
      // Every cell claimed by two workers at once and finished by the winner, while a give-up races
      // some finishes: each cell is counted once, and the run completes.
      const { run, cells } = await startRun(database, 12, 2);
      await Promise.all(
        cells.flatMap((cell, index) => {
          const work = (worker: string) =>
            claimAndFinish(database, run.id, cell, worker, statuses[index % 3]!);
          const racers = [work(workers[index % 3]!), work(workers[(index + 1) % 3]!)];
          if (index % 5 === 0)
            racers.push(
              qaRuns.giveUpCell(run.id, cell.caseIndex, cell.targetIndex, 'gave up').then(() => undefined),
            );
          return racers;
        }),
      );
      expect(await expectCountsMatchCells(database, run.id)).toMatchObject({
        status: 'completed',
        counts: { done: 24 },
      });

      // Workers and give-ups of pending cells racing a cancel: whatever interleaving the engine
      // chose, the counters equal the cells' states and never pass the total.
      const second = await startRun(database, 12, 2, 'second');
      await Promise.all([
        ...second.cells.map(async (cell, index) => {
          if (index % 4 === 0) {
            await qaRuns.giveUpCell(second.run.id, cell.caseIndex, cell.targetIndex, 'gave up');
            return;
          }
          await claimAndFinish(database, second.run.id, cell, workers[index % 3]!, 'passed');
        }),
        qaRuns.cancel(second.run.id),
      ]);
      const raced = await expectCountsMatchCells(database, second.run.id);
      expect(raced.counts.done).toBe(24);
      // The cancel came before the last cell finished (cancelled) or after (completed, a no-op);
      // cells it cancelled mean it came first.
      expect(['cancelled', 'completed']).toContain(raced.status);
      if (raced.counts.cancelled > 0) expect(raced.status).toBe('cancelled');
    });

    it('lists a suite’s runs newest first and finds the latest finished run before one', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { suite, run: first, cells } = await startRun(database, 1, 1);
      const next = () => {
        database.clock.advance(10);
        return qaRuns.create({
          suiteId: suite.id,
          suiteVersion: 1,
          createdBy: 'u-qa',
          options: { concurrency: 2 },
          cells,
        });
      };
      const second = await next();
      const third = await next();
      expect(await qaRuns.latestFinishedBefore(suite.id, third.id)).toBeUndefined();
      await qaRuns.claimCell(first.id, 0, 0, 'w', LEASE_MS);
      await qaRuns.finishCell(first.id, 0, 0, 'w', outcome('passed'));
      await qaRuns.cancel(second.id);
      expect((await qaRuns.latestFinishedBefore(suite.id, third.id))?.id).toBe(second.id);
      expect((await qaRuns.latestFinishedBefore(suite.id, second.id))?.id).toBe(first.id);
      expect(await qaRuns.latestFinishedBefore(suite.id, first.id)).toBeUndefined();
      const other = await startRun(database, 1, 1, 'other');
      expect(await qaRuns.latestFinishedBefore(other.suite.id, third.id)).toBeUndefined();

      const page = await qaRuns.listForSuite(suite.id, { limit: 2 });
      expect(page.items.map((run) => run.id)).toEqual([third.id, second.id]);
      expect(page.items[0]?.options).toEqual({ concurrency: 2 });
      const rest = await qaRuns.listForSuite(suite.id, { limit: 2, cursor: page.nextCursor });
      expect(rest.items.map((run) => run.id)).toEqual([first.id]);
      expect(rest.nextCursor).toBeNull();
    });

    it('property: the latest run of many suites at once is each suite’s newest run, ties on time included', async () => {
      const database = current();
      const { qaSuites, qaRuns } = database.repositories;
      const suites = [
        await startRun(database, 1, 1, 'latest-a'),
        await startRun(database, 1, 1, 'latest-b'),
        await startRun(database, 1, 1, 'latest-c'),
      ];
      const { suite: neverRun } = await qaSuites.create({
        name: 'latest-never-run',
        description: null,
        definition: definitionOf('latest-never-run', 1),
        caseCount: 1,
        targetCount: 1,
        createdBy: 'u-qa',
        note: null,
      });
      await fc.assert(
        fc.asyncProperty(
          // Which suite gets a run next, and how far the clock moves first (0: the same instant).
          fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom(0, 0, 5)), { maxLength: 6 }),
          async (starts) => {
            for (const [which, advance] of starts) {
              database.clock.advance(advance);
              const { suite, cells } = suites[which]!;
              await qaRuns.create({
                suiteId: suite.id,
                suiteVersion: 1,
                createdBy: 'u-qa',
                options: {},
                cells,
              });
            }
            const ids = [...suites.map(({ suite }) => suite.id), neverRun.id];
            const latest = await qaRuns.latestOfSuites(ids);
            for (const { suite } of suites)
              expect(latest.get(suite.id)?.id).toBe(
                (await qaRuns.listForSuite(suite.id, { limit: 1 })).items[0]?.id,
              );
            expect(latest.has(neverRun.id)).toBe(false);
            expect(latest.size).toBe(suites.length);
          },
        ),
        { numRuns: 15 },
      );
      expect(await qaRuns.latestOfSuites([])).toEqual(new Map());
    });

    it('property: any sequence of claims, extensions, finishes, give-ups, cancels and time agrees with a lease model', async () => {
      const database = current();
      const { qaRuns } = database.repositories;
      const { suite, cells } = await startRun(database, 2, 2);
      const workers = ['worker-a', 'worker-b'] as const;
      const cell = fc.integer({ min: 0, max: cells.length - 1 });
      const worker = fc.constantFrom(...workers);
      const step = fc.oneof(
        fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 2 * LEASE_MS }) }),
        fc.record({ kind: fc.constant('claim' as const), cell, worker }),
        fc.record({ kind: fc.constant('extend' as const), cell, worker }),
        fc.record({
          kind: fc.constant('finish' as const),
          cell,
          worker,
          status: fc.constantFrom<QaFinishedCellStatus>('passed', 'failed', 'error', 'cancelled'),
        }),
        fc.record({ kind: fc.constant('give-up' as const), cell }),
        fc.record({ kind: fc.constant('cancel' as const) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
          const run = await qaRuns.create({
            suiteId: suite.id,
            suiteVersion: 1,
            createdBy: 'u',
            options: {},
            cells,
          });
          const model = {
            status: 'running' as QaSuiteRun['status'],
            cells: cells.map(() => ({
              status: 'pending' as QaCellStatus,
              claimedBy: null as string | null,
              leaseUntil: 0,
              attempts: 0,
            })),
          };
          const finished = (status: QaCellStatus) => status !== 'pending' && status !== 'running';
          const completeIfDone = () => {
            if (model.status === 'running' && model.cells.every((c) => finished(c.status)))
              model.status = 'completed';
          };
          for (const current of steps) {
            const now = database.clock.now();
            switch (current.kind) {
              case 'advance':
                database.clock.advance(current.ms);
                break;
              case 'claim': {
                const { caseIndex, targetIndex } = cells[current.cell]!;
                const expected = model.cells[current.cell]!;
                const claimable =
                  model.status === 'running' &&
                  (expected.status === 'pending' ||
                    (expected.status === 'running' && expected.leaseUntil < now));
                const claimed = await qaRuns.claimCell(
                  run.id,
                  caseIndex,
                  targetIndex,
                  current.worker,
                  LEASE_MS,
                );
                expect(claimed !== undefined).toBe(claimable);
                if (claimable)
                  Object.assign(expected, {
                    status: 'running',
                    claimedBy: current.worker,
                    leaseUntil: now + LEASE_MS,
                    attempts: expected.attempts + 1,
                  });
                break;
              }
              case 'extend': {
                const { caseIndex, targetIndex } = cells[current.cell]!;
                const expected = model.cells[current.cell]!;
                const state = await qaRuns.extendLease(
                  run.id,
                  caseIndex,
                  targetIndex,
                  current.worker,
                  LEASE_MS,
                );
                const held = expected.status === 'running' && expected.claimedBy === current.worker;
                expect(state).toBe(model.status === 'cancelled' ? 'cancelled' : held ? 'held' : 'lost');
                if (model.status !== 'cancelled' && held) expected.leaseUntil = now + LEASE_MS;
                break;
              }
              case 'finish': {
                const { caseIndex, targetIndex } = cells[current.cell]!;
                const expected = model.cells[current.cell]!;
                const held = expected.status === 'running' && expected.claimedBy === current.worker;
                expect(
                  await qaRuns.finishCell(
                    run.id,
                    caseIndex,
                    targetIndex,
                    current.worker,
                    outcome(current.status),
                  ),
                ).toBe(held);
                if (held) expected.status = current.status;
                completeIfDone();
                break;
              }
              case 'give-up': {
                const { caseIndex, targetIndex } = cells[current.cell]!;
                const expected = model.cells[current.cell]!;
                const open = !finished(expected.status);
                expect(await qaRuns.giveUpCell(run.id, caseIndex, targetIndex, 'gave up')).toBe(open);
                if (open) expected.status = 'error';
                completeIfDone();
                break;
              }
              case 'cancel':
                if (model.status === 'running') {
                  model.status = 'cancelled';
                  for (const expected of model.cells)
                    if (expected.status === 'pending') expected.status = 'cancelled';
                }
                expect((await qaRuns.cancel(run.id)).status).toBe(model.status);
                break;
            }
          }
          const stored = await expectCountsMatchCells(database, run.id);
          expect(stored.status).toBe(model.status);
          expect(stored.finishedAt === null).toBe(model.status === 'running');
          const storedCells: QaRunCell[] = await qaRuns.cells(run.id);
          expect(storedCells.map((c) => [c.status, c.attempts])).toEqual(
            model.cells.map((c) => [c.status, c.attempts]),
          );
        }),
        { numRuns: 40 },
      );
    });
  });
}
