import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CellComparisonJson,
  CellJson,
  RunComparisonJson,
  SuiteJson,
  SuiteRunJson,
  SuiteRunSummaryJson,
} from '@agentdesk/api-contract';
import type { Engine } from '../support/engines';
import { createLocalUser, issueUserKey, missingId, type IssuedKey } from '../support/fixtures';
import { openFeed } from '../support/live-feed-client';
import { startTestApi, type TestApi } from '../support/test-api';
import { finishCells, runsUrl, storedRun, suitesUrl, ticketSuite } from './qa-fixtures';

interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * Runs of QA suites over HTTP: the matrix, one cell, cancelling, comparing two runs and following
 * progress live. Cells are finished through the repository, as a worker would, so everything here
 * is tested apart from the run engine.
 */
export function describeQaRuns(engine: Engine): void {
  describe(`QA suite runs (${engine})`, () => {
    let test: TestApi;
    let qaKey: IssuedKey;
    let viewerKey: IssuedKey;
    let qaUserId: string;
    let suite: SuiteJson;

    beforeAll(async () => {
      test = await startTestApi(engine);
      const repositories = test.api.repositories;
      const qa = await createLocalUser(repositories, 'Quinn QA');
      qaUserId = qa.id;
      qaKey = await issueUserKey(repositories, qa, 'qa');
      viewerKey = await issueUserKey(
        repositories,
        await createLocalUser(repositories, 'Vera Viewer'),
        'viewer',
      );
      const created = await call('POST', suitesUrl, { definition: ticketSuite('Triage') });
      expect(created.statusCode, created.body).toBe(201);
      suite = created.json<SuiteJson>();
    });
    afterAll(async () => {
      await test?.close();
    });

    const call = (method: 'GET' | 'POST', url: string, body?: unknown, key: IssuedKey = qaKey) =>
      test.request({ method, url, key: key.key, ...(body === undefined ? {} : { body }) });
    const messageOf = (response: { json: <T>() => T }): string => response.json<ErrorBody>().error.message;

    it('reads a run as its matrix, with pass rates per target and per assertion kind', async () => {
      const runId = await storedRun(test, suite, qaUserId);
      await finishCells(test.api.repositories, runId, (caseId, target) =>
        caseId === 'refund' && target === 1
          ? 'failed'
          : caseId === 'hello' && target === 0
            ? 'error'
            : 'passed',
      );
      const response = await call('GET', `${runsUrl}/${runId}`, undefined, viewerKey);
      expect(response.statusCode).toBe(200);
      const run = response.json<SuiteRunJson>();
      expect(run).toMatchObject({
        id: runId,
        suiteId: suite.id,
        suiteName: 'Triage',
        suiteVersion: 1,
        status: 'completed',
        createdByName: 'Quinn QA',
        counts: { total: 6, done: 6, passed: 4, failed: 1, errored: 1, cancelled: 0 },
        cases: [
          { id: 'refund', description: null },
          { id: 'crash', description: null },
          { id: 'hello', description: null },
        ],
      });
      expect(run.finishedAt).not.toBeNull();
      expect(run.cells.map((cell) => [cell.caseId, cell.targetIndex, cell.status])).toEqual([
        ['refund', 0, 'passed'],
        ['refund', 1, 'failed'],
        ['crash', 0, 'passed'],
        ['crash', 1, 'passed'],
        ['hello', 0, 'error'],
        ['hello', 1, 'passed'],
      ]);
      expect(run.cells[1]).toMatchObject({ failedKinds: ['equals'], latencyMs: 40, costMicros: 12 });
      expect(run.byTarget).toMatchObject([
        { key: 'gpt-test', passed: 2, judged: 3 },
        { key: 'claude', passed: 2, judged: 3 },
      ]);
      expect(run.byAssertionKind.find((rate) => rate.key === 'equals')).toMatchObject({
        passed: 1,
        judged: 2,
      });

      const runs = await call('GET', `${suitesUrl}/${suite.id}/runs`);
      expect(runs.statusCode).toBe(200);
      expect(runs.json<{ items: SuiteRunSummaryJson[] }>().items[0]).toMatchObject({
        id: runId,
        counts: { done: 6 },
        byTarget: [{ key: 'gpt-test' }, { key: 'claude' }],
      });
      const summary = (await call('GET', `${suitesUrl}/${suite.id}`)).json<SuiteJson>();
      expect(summary.lastRun).toMatchObject({ id: runId, status: 'completed', passRate: 4 / 6 });
    });

    it('reads one cell whole: the target’s result and each assertion’s outcome', async () => {
      const runId = await storedRun(test, suite, qaUserId);
      await finishCells(
        test.api.repositories,
        runId,
        () => 'failed',
        (caseId, target) => caseId === 'crash' && target === 1,
      );
      const response = await call('GET', `${runsUrl}/${runId}/cells/crash/1`);
      expect(response.statusCode, response.body).toBe(200);
      const cell = response.json<CellJson>();
      expect(cell).toMatchObject({
        runId,
        caseId: 'crash',
        caseIndex: 1,
        targetIndex: 1,
        status: 'failed',
        attempts: 1,
        target: { model: 'claude-test', label: 'claude', temperature: 0, strict: true },
        result: {
          model: 'claude-test',
          json: { category: 'bug', urgent: false },
          validation: { valid: true },
        },
        assertions: [
          { kind: 'schema', passed: true },
          { kind: 'equals', passed: false, message: 'got "bug"' },
        ],
      });
      // The stored assertions are not repeated inside the target's result.
      expect(cell.result).not.toHaveProperty('assertions');
      const pending = (await call('GET', `${runsUrl}/${runId}/cells/refund/0`)).json<CellJson>();
      expect(pending).toMatchObject({ status: 'pending', result: null, assertions: [], finishedAt: null });

      const missing = await call('GET', `${runsUrl}/${runId}/cells/nope/0`);
      expect(missing.statusCode).toBe(404);
      expect(messageOf(missing)).toBe(`Run ${runId} has no cell for case "nope" on target 0`);
      expect((await call('GET', `${runsUrl}/${runId}/cells/crash/x`)).statusCode).toBe(400);
      expect(
        (await call('GET', `${runsUrl}/${runId}/cells/${encodeURIComponent('no spaces')}/0`)).statusCode,
      ).toBe(400);
    });

    it('cancels a running run once; a finished run cannot be cancelled (409)', async () => {
      const runId = await storedRun(test, suite, qaUserId);
      expect((await call('POST', `${runsUrl}/${runId}/cancel`, undefined, viewerKey)).statusCode).toBe(403);
      const cancelled = await call('POST', `${runsUrl}/${runId}/cancel`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json<SuiteRunJson>()).toMatchObject({
        status: 'cancelled',
        counts: { total: 6, done: 6, cancelled: 6 },
      });
      expect(cancelled.json<SuiteRunJson>().cells.every((cell) => cell.status === 'cancelled')).toBe(true);
      const again = await call('POST', `${runsUrl}/${runId}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(messageOf(again)).toContain('already cancelled');
      const audit = await test.api.repositories.audit.list({ action: 'qa.run.cancel' });
      expect(audit.items.map((entry) => entry.outcome)).toEqual(['refused', 'succeeded', 'refused']);
      expect(audit.items[1]).toMatchObject({ target: { kind: 'qa-run', id: runId } });
      expect((await call('POST', `${runsUrl}/${missingId}/cancel`)).statusCode).toBe(404);
    });

    it('compares a run with the previous finished one: regressions, fixes, and one case’s JSON diff', async () => {
      const other = (
        await call('POST', suitesUrl, { definition: ticketSuite('Compared') })
      ).json<SuiteJson>();
      const first = await storedRun(test, other, qaUserId);
      const nothingBefore = await call('GET', `${runsUrl}/${first}/compare`);
      expect(nothingBefore.statusCode).toBe(404);
      expect(messageOf(nothingBefore)).toBe('No earlier finished run of this suite to compare with');
      await finishCells(test.api.repositories, first, (caseId) => (caseId === 'crash' ? 'failed' : 'passed'));
      const second = await storedRun(test, other, qaUserId);
      await finishCells(test.api.repositories, second, (caseId, target) =>
        caseId === 'refund' && target === 0 ? 'failed' : 'passed',
      );

      const compared = await call('GET', `${runsUrl}/${second}/compare?against=latest`, undefined, viewerKey);
      expect(compared.statusCode, compared.body).toBe(200);
      const comparison = compared.json<RunComparisonJson>();
      expect(comparison).toMatchObject({ runId: second, againstRunId: first });
      expect(comparison.counts).toMatchObject({ regression: 1, fix: 2, 'unchanged-pass': 3 });
      expect(comparison.cells.find((cell) => cell.change === 'regression')).toEqual({
        caseId: 'refund',
        target: 'gpt-test',
        change: 'regression',
        before: 'passed',
        after: 'failed',
      });
      const explicit = (
        await call('GET', `${runsUrl}/${second}/compare?against=${first}`)
      ).json<RunComparisonJson>();
      expect(explicit.counts).toEqual(comparison.counts);

      const diff = await call('GET', `${runsUrl}/${second}/compare/refund/0`);
      expect(diff.statusCode, diff.body).toBe(200);
      const cellDiff = diff.json<CellComparisonJson>();
      expect(cellDiff).toMatchObject({
        runId: second,
        againstRunId: first,
        before: { status: 'passed', result: { json: { category: 'billing' } } },
        after: { status: 'failed', result: { json: { category: 'bug' } } },
      });
      expect(cellDiff.diff).toEqual([
        { pointer: '/category', op: 'changed', before: 'billing', after: 'bug' },
      ]);

      // Only runs of the same suite compare; a run not with itself.
      const foreign = await storedRun(test, suite, qaUserId);
      const across = await call('GET', `${runsUrl}/${second}/compare?against=${foreign}`);
      expect(across.statusCode).toBe(400);
      expect(messageOf(across)).toContain('query.against: run');
      expect((await call('GET', `${runsUrl}/${second}/compare?against=${second}`)).statusCode).toBe(400);
      expect((await call('GET', `${runsUrl}/${second}/compare?against=${missingId}`)).statusCode).toBe(404);
      expect((await call('GET', `${runsUrl}/${second}/compare?against=yesterday`)).statusCode).toBe(400);
      expect((await call('GET', `${runsUrl}/${second}/compare/nope/0`)).statusCode).toBe(404);
      expect((await call('GET', `${runsUrl}/${second}/compare/refund/7`)).statusCode).toBe(404);
    });

    it('streams progress: a snapshot, cells as they finish, then finished, and the stream ends', async () => {
      const runId = await storedRun(test, suite, qaUserId);
      await finishCells(
        test.api.repositories,
        runId,
        () => 'passed',
        (caseId) => caseId === 'refund',
      );
      const baseUrl = await test.api.listen();
      const feed = await openFeed(baseUrl, `${runsUrl}/${runId}/events`, viewerKey.key);
      try {
        expect(feed.status).toBe(200);
        expect(feed.contentType).toContain('text/event-stream');
        const snapshot = await feed.next((event) => event.event === 'snapshot');
        expect(snapshot.data).toMatchObject({
          type: 'snapshot',
          run: { id: runId, counts: { done: 2, total: 6 } },
        });

        await finishCells(
          test.api.repositories,
          runId,
          () => 'failed',
          (caseId) => caseId === 'crash',
        );
        const batch = await feed.next((event) => event.event === 'cells');
        const cells = batch.data['cells'] as Array<{ caseId: string; status: string }>;
        expect(cells.every((cell) => cell.caseId === 'crash' && cell.status === 'failed')).toBe(true);

        await finishCells(test.api.repositories, runId, () => 'passed');
        const finished = await feed.next((event) => event.event === 'finished');
        expect(finished.data).toEqual({
          type: 'finished',
          status: 'completed',
          counts: { total: 6, done: 6, passed: 4, failed: 2, errored: 0, cancelled: 0 },
        });
        await feed.ended;
        // Every finished cell was sent once, the ones in the snapshot not again.
        const sent = feed.events
          .filter((event) => event.event === 'cells')
          .flatMap((event) => event.data['cells'] as Array<{ caseId: string; targetIndex: number }>)
          .map((cell) => `${cell.caseId}/${cell.targetIndex}`)
          .sort();
        expect(sent).toEqual(['crash/0', 'crash/1', 'hello/0', 'hello/1']);
      } finally {
        await feed.close();
      }

      const done = await openFeed(baseUrl, `${runsUrl}/${runId}/events`, viewerKey.key);
      await done.ended;
      expect(done.events.map((event) => event.event)).toEqual(['snapshot', 'finished']);
      expect((await call('GET', `${runsUrl}/${missingId}/events`)).statusCode).toBe(404);
    });
  });
}
