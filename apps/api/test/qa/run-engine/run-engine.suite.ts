import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import type { TestDatabase } from '@agentdesk/storage/testing';
import type { User } from '@agentdesk/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIVEN_UP_REASON } from '../../../src/qa/run-engine';
import { testDatabaseFactories, type Engine } from '../../support/engines';
import { createLocalUser } from '../../support/fixtures';
import {
  allCells,
  answerSchema,
  createRun,
  expectCountsMatchCells,
  startEngineApp,
  threeTargets,
  waitFor,
  waitForRunEnd,
  type EngineApp,
} from './support/engine-app';

/** Cases whose assertions pass (`yes`) or fail (a score above the schema's maximum), alternating. */
function casesOf(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: `case-${index}`,
    prompt: `question ${index}`,
    schema: answerSchema,
    assertions:
      index % 2 === 0
        ? [{ kind: 'equals' as const, pointer: '/answer', value: 'yes' }]
        : [{ kind: 'range' as const, pointer: '/score', min: 10 }],
  }));
}

/** The run engine end to end on one database engine: the app's own engine, the emulator as every provider. */
export function describeRunEngine(engine: Engine): void {
  describe(`QA suite run engine (${engine})`, () => {
    let database: TestDatabase;
    let emulator: ProviderEmulator;
    let apps: EngineApp[] = [];
    let qa: User;

    beforeEach(async () => {
      database = await testDatabaseFactories[engine]();
      emulator = await startProviderEmulator();
      qa = await createLocalUser(database.repositories, 'quality');
    });
    afterEach(async () => {
      for (const app of apps) await app.close().catch(() => undefined);
      apps = [];
      await emulator.close();
      await database.cleanup();
    });

    const start = async (environment: Record<string, string> = {}) => {
      const app = await startEngineApp(database.database, emulator, environment);
      apps.push(app);
      return app;
    };

    it('runs cases × targets to the end: one model call per cell, counts equal to the cells’ outcomes', async () => {
      const app = await start();
      const repositories = app.api.repositories;
      const run = await createRun(repositories, qa.id, {
        name: 'counts',
        targets: threeTargets,
        cases: casesOf(6),
      });
      await app.engine.enqueue(run.id, allCells(run, 3));

      const ended = await waitForRunEnd(repositories, run.id);
      expect(ended.status).toBe('completed');
      expect(ended.counts).toEqual({ total: 18, done: 18, passed: 9, failed: 9, errored: 0, cancelled: 0 });
      const cells = await repositories.qaRuns.cells(run.id);
      expectCountsMatchCells(ended, cells);
      expect(emulator.requests).toHaveLength(18);
      for (const cell of cells) {
        expect(cell.attempts).toBe(1);
        expect(cell.failedKinds).toEqual(cell.caseIndex % 2 === 0 ? [] : ['range']);
      }
      // The full result: what the lab keeps, its cost, and each assertion's outcome (schema first).
      const failed = await repositories.qaRuns.cell(run.id, 1, 2);
      expect(failed.result).toMatchObject({
        model: 'gemini-test',
        provider: 'gemini',
        status: 'ok',
        validation: { valid: true },
        assertions: [
          { kind: 'schema', passed: true },
          { kind: 'range', passed: false },
        ],
      });
      expect(failed.reason).toMatch(/score/);
      expect(failed.inputTokens).toBeGreaterThan(0);
    });

    it('sends each target’s settings and the case’s messages to the model', async () => {
      const app = await start();
      const repositories = app.api.repositories;
      const run = await createRun(repositories, qa.id, {
        name: 'settings',
        targets: [{ model: 'gpt-test', temperature: 0.3, maxTokens: 321, strict: true }],
        cases: [
          {
            id: 'chat',
            systemPrompt: 'be brief',
            messages: [
              { role: 'user', content: 'first' },
              { role: 'assistant', content: 'ok' },
              { role: 'user', content: 'second' },
            ],
            schema: answerSchema,
          },
        ],
      });
      await app.engine.enqueue(run.id, allCells(run, 1));
      await waitForRunEnd(repositories, run.id);
      const body = emulator.lastRequest('openai')?.body as Record<string, unknown>;
      expect(body).toMatchObject({
        model: 'gpt-test',
        temperature: 0.3,
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'second' },
        ],
        response_format: { type: 'json_schema', json_schema: { name: 'chat', strict: true } },
      });
      expect(body['max_tokens'] ?? body['max_completion_tokens']).toBe(321);
    });

    it('judges JavaScript assertions as not run when this server has no sandbox; the cell fails, it does not hang', async () => {
      const app = await start();
      const repositories = app.api.repositories;
      const run = await createRun(repositories, qa.id, {
        name: 'no sandbox',
        targets: [{ model: 'gpt-test' }],
        cases: [
          {
            id: 'js',
            prompt: 'q',
            schema: answerSchema,
            assertions: [{ kind: 'javascript', code: 'return true' }],
          },
        ],
      });
      await app.engine.enqueue(run.id, allCells(run, 1));
      const ended = await waitForRunEnd(repositories, run.id);
      expect(ended.counts.failed).toBe(1);
      const cell = await repositories.qaRuns.cell(run.id, 0, 0);
      expect(cell.failedKinds).toEqual(['javascript']);
      expect(cell.result?.['assertions']).toContainEqual(
        expect.objectContaining({
          kind: 'javascript',
          passed: null,
          message: 'the sandbox is not available',
        }),
      );
    });

    it('keeps at most the run’s concurrency of calls in flight per provider', async () => {
      emulator.script({ kind: 'hang', times: 'always' });
      const app = await start();
      const repositories = app.api.repositories;
      const run = await createRun(
        repositories,
        qa.id,
        { name: 'bounded', targets: [{ model: 'gpt-test' }, { model: 'claude-test' }], cases: casesOf(8) },
        { concurrency: 2 },
      );
      await app.engine.enqueue(run.id, allCells(run, 2));
      // Every cell claimed: those without a slot wait for one, and the calls never end.
      await waitFor(async () => {
        const cells = await repositories.qaRuns.unfinishedCells(run.id);
        return cells.every((cell) => cell.status === 'running') && emulator.requests.length >= 4
          ? true
          : undefined;
      }, 'every cell claimed and four calls made');
      const byProvider = (provider: string) =>
        emulator.requests.filter((request) => request.provider === provider).length;
      expect([byProvider('openai'), byProvider('anthropic')]).toEqual([2, 2]);

      await repositories.qaRuns.cancel(run.id);
      app.engine.cancelLocal(run.id);
      const ended = await waitForRunEnd(repositories, run.id);
      expect(ended.counts).toMatchObject({ total: 16, done: 16, cancelled: 16 });
      expect(emulator.requests).toHaveLength(4);
    });

    it('resumes after a stop mid-run: every cell finishes once, the counts equal the cells', async () => {
      emulator.script({ kind: 'json', delayMs: 300, times: 'always' });
      const first = await start({ AGENTDESK_QA_CONCURRENCY: '2' });
      const repositories = first.api.repositories;
      const run = await createRun(repositories, qa.id, {
        name: 'restart',
        targets: threeTargets,
        cases: casesOf(8),
      });
      await first.engine.enqueue(run.id, allCells(run, 3));
      await waitFor(async () => {
        const current = await repositories.qaRuns.get(run.id);
        const cells = await repositories.qaRuns.unfinishedCells(run.id);
        return current.counts.done >= 3 && cells.some((cell) => cell.status === 'running') ? true : undefined;
      }, 'some cells done and some in flight');
      await first.close();
      apps = apps.filter((app) => app !== first);

      const stopped = await repositories.qaRuns.get(run.id);
      expect(stopped.status).toBe('running');
      expect(stopped.counts.done).toBeLessThan(24);

      const second = await start();
      const ended = await waitForRunEnd(second.api.repositories, run.id);
      expect(ended.status).toBe('completed');
      expect(ended.counts).toMatchObject({ total: 24, done: 24, passed: 12, failed: 12, errored: 0 });
      expectCountsMatchCells(ended, await repositories.qaRuns.cells(run.id));
      expect(second.logs.text()).toContain('QA suite runs resumed: unfinished cells enqueued');
    });

    it('after a crash, takes over cells held by a dead worker once their lease passes, and gives up a cell whose workers stopped three times', async () => {
      // The dead workers' claims carry their own short leases; the live app's lease is long enough
      // that a starved machine never makes it take over its own cell (which would count a claim).
      const app0 = await start({ AGENTDESK_QA_CELL_LEASE_MS: '4000' });
      await app0.close();
      apps = [];
      const repositories = app0.api.repositories;
      const run = await createRun(repositories, qa.id, {
        name: 'crashed',
        targets: [{ model: 'gpt-test' }],
        cases: casesOf(3),
      });
      // A worker that died holding case 0 (lease still running), and case 2 after its third claim.
      expect(await repositories.qaRuns.claimCell(run.id, 0, 0, 'dead-worker', 1_000)).toBeDefined();
      for (let claim = 0; claim < 3; claim++)
        expect(await repositories.qaRuns.claimCell(run.id, 2, 0, `dead-worker-${claim}`, -1)).toBeDefined();

      const app = await start({ AGENTDESK_QA_CELL_LEASE_MS: '4000' });
      const ended = await waitForRunEnd(app.api.repositories, run.id);
      const cells = await repositories.qaRuns.cells(run.id);
      expectCountsMatchCells(ended, cells);
      expect(cells.map((cell) => [cell.caseIndex, cell.status, cell.attempts])).toEqual([
        [0, 'passed', 2],
        [1, 'failed', 1],
        [2, 'error', 3],
      ]);
      expect(cells[0]!.claimedBy).not.toBe('dead-worker');
      expect(cells[2]!.reason).toBe(GIVEN_UP_REASON);
    });

    it('cancels mid-run: calls in flight stop, nothing is left pending or running, every cell is counted once', async () => {
      emulator.script({ kind: 'json', delayMs: 30_000, times: 'always' });
      const app = await start({ AGENTDESK_QA_CONCURRENCY: '1' });
      const repositories = app.api.repositories;
      const run = await createRun(repositories, qa.id, {
        name: 'cancel',
        targets: threeTargets,
        cases: casesOf(4),
      });
      await app.engine.enqueue(run.id, allCells(run, 3));
      await waitFor(
        () => (emulator.requests.length >= 3 ? true : undefined),
        'a call per provider in flight',
      );

      await repositories.qaRuns.cancel(run.id);
      app.engine.cancelLocal(run.id);
      const ended = await waitForRunEnd(repositories, run.id);
      expect(ended.status).toBe('cancelled');
      expect(ended.counts).toMatchObject({ total: 12, done: 12, cancelled: 12 });
      expectCountsMatchCells(ended, await repositories.qaRuns.cells(run.id));
      expect(emulator.requests).toHaveLength(3);
    });
  });
}
