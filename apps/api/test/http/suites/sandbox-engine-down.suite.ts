import { mkdtempSync } from 'node:fs';
import { buildOfflineBaseImage, startPrivateEngine, type PrivateEngine } from '@agentdesk/sandbox';
import type { User } from '@agentdesk/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxRuntime } from '../../../src/shared/sandbox-runtime/sandbox-runtime';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { apiTestBaseImage } from '../../support/sandbox-engine.global-setup';
import { sandboxTestEnvironment } from '../../support/sandbox-environment';
import { startTestApi, type TestApi } from '../../support/test-api';
import { waitFor } from '../../support/wait-for';

/** The engine stops under a running API: sandbox routes 503, tools answer errors, the rest works, and it all recovers. */
export function describeSandboxEngineDown(engine: Engine): void {
  describe(`sandbox with its engine stopped (${engine})`, () => {
    // Stopping the shared engine would break other files: this suite stops an engine of its own.
    const directory = mkdtempSync('/tmp/agentdesk-api-down-');
    let privateEngine: PrivateEngine;
    let test: TestApi;
    let admin: User;
    let adminKey: IssuedKey;

    beforeAll(async () => {
      privateEngine = await startPrivateEngine({ directory, log: () => undefined });
      await buildOfflineBaseImage(privateEngine.engine, { reference: apiTestBaseImage });
      test = await startTestApi(engine, {
        ...sandboxTestEnvironment('down', engine),
        DOCKER_HOST: privateEngine.dockerHost,
        AGENTDESK_SANDBOX_WARM_POOL: '0',
      });
      await test.api.app.get(SandboxRuntime).whenStarted();
      admin = await createLocalUser(test.api.repositories, 'admin-down');
      adminKey = await issueUserKey(test.api.repositories, admin, 'admin');
    });
    afterAll(async () => {
      await test?.close();
      await privateEngine?.stop({ removeDirectory: true });
    });

    const get = (url: string) => test.request({ method: 'GET', url, key: adminKey.key });

    it('answers 503 on sandbox routes, reports /readyz degraded, keeps every other route and turn working, and recovers', async () => {
      expect((await get('/readyz')).json()).toMatchObject({ status: 'ready', sandbox: { status: 'ready' } });
      await privateEngine.stop();

      for (const [method, url] of [
        ['GET', '/v1/admin/sandbox/image'],
        ['GET', '/v1/admin/sandbox/containers'],
        ['POST', '/v1/admin/sandbox/image/rebuild'],
        ['POST', '/v1/admin/sandbox/image/repin'],
        ['DELETE', '/v1/admin/sandbox/containers/agentdesk-session-anything'],
      ] as const) {
        const response = await test.request({ method, url, key: adminKey.key });
        expect(response.statusCode, `${method} ${url}`).toBe(503);
        expect(response.json<{ error: { code: string; message: string } }>().error).toMatchObject({
          code: 'NOT_READY',
          message: expect.stringContaining('Docker engine unreachable'),
        });
      }
      const ready = await get('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ready',
        sandbox: { status: 'degraded', message: expect.stringContaining('unreachable') },
      });
      const sandboxReady = await get('/readyz/sandbox');
      expect(sandboxReady.statusCode).toBe(503);
      expect(sandboxReady.json<{ error: { message: string } }>().error.message).toContain('unreachable');
      // The history is in the database: still readable.
      expect((await get('/v1/admin/sandbox/builds')).statusCode).toBe(200);
      expect((await get('/v1/sessions')).statusCode).toBe(200);

      const session = await createSession(test.api.repositories, admin, 'down');
      test.emulator.script(
        {
          kind: 'tool-calls',
          toolCalls: [{ id: 'call_down', name: 'run_command', arguments: { command: 'true' } }],
        },
        { kind: 'text', text: 'The sandbox is down, answering anyway.' },
      );
      const turn = await test.request({
        method: 'POST',
        url: `/v1/sessions/${session.id}/messages`,
        key: adminKey.key,
        body: { content: 'run something' },
      });
      expect(turn.json()).toMatchObject({ status: 'complete' });
      const toolMessage = (
        await test.api.repositories.transcript.listMessagesForOwner(admin.id, session.id)
      ).items.find((message) => message.toolCallId === 'call_down');
      expect(JSON.stringify(toolMessage?.contentParts)).toContain(
        'run_command: the sandbox is unavailable right now',
      );

      privateEngine = await startPrivateEngine({ directory, log: () => undefined });
      expect((await get('/readyz')).json()).toMatchObject({ sandbox: { status: 'ready' } });
      expect((await get('/readyz/sandbox')).statusCode).toBe(200);
      expect((await get('/v1/admin/sandbox/image')).json()).toMatchObject({
        present: true,
        pin: { pinned: true },
      });
      expect((await get('/v1/admin/sandbox/containers')).statusCode).toBe(200);
    });

    it('with no engine at start, retries quietly: no failed build per attempt, the full error once, then a short line at attempts 2, 4, 8', async () => {
      const absent = await startTestApi(engine, {
        ...sandboxTestEnvironment('absent', engine),
        DOCKER_HOST: `unix://${directory}/absent/docker.sock`,
        AGENTDESK_SANDBOX_START_RETRY_MS: '100',
      });
      try {
        const failedStarts = () =>
          absent.logs.lines
            .filter((line) => line.includes('the sandbox could not start'))
            .map((line) => JSON.parse(line) as Record<string, unknown>);
        // The waits double (100, 200, 400 ms, …): attempt 8 comes about 13 s after the first
        // (2400 probes: a minute on a quiet machine).
        await waitFor(
          () => (failedStarts().length >= 4 ? true : undefined),
          'four "could not start" lines (attempts 1, 2, 4 and 8)',
          { attempts: 2400, state: () => ({ failedStarts: failedStarts() }) },
        );
        const [first, ...later] = failedStarts();
        expect(first).toHaveProperty('err');
        expect(later.slice(0, 3).map((line) => [line['attempts'], line['nextLogAtAttempt']])).toEqual([
          [2, 4],
          [4, 8],
          [8, 16],
        ]);
        expect(later.every((line) => typeof line['reason'] === 'string' && !('err' in line))).toBe(true);
        const owner = await createLocalUser(absent.api.repositories, 'admin-absent');
        const key = await issueUserKey(absent.api.repositories, owner, 'admin');
        const builds = await absent.request({ method: 'GET', url: '/v1/admin/sandbox/builds', key: key.key });
        expect(builds.statusCode).toBe(200);
        expect(builds.json<{ items: unknown[] }>().items).toEqual([]);
      } finally {
        await absent.close();
      }
    }, 300_000);
  });
}
