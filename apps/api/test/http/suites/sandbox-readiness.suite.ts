import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { sandboxTestEnvironment } from '../../support/sandbox-environment';
import { startTestApi, type TestApi } from '../../support/test-api';
import { waitFor } from '../../support/wait-for';

const missingBase = 'agentdesk-no-such-base:missing';

/**
 * A sandbox that cannot start although its engine answers (its base image is missing and nothing
 * may restore it): /readyz keeps the API ready but says why the sandbox is not, /readyz/sandbox
 * answers 503 with the reason, and the retries back off without adding a failed build each time.
 */
export function describeSandboxReadiness(engine: Engine): void {
  describe(`sandbox readiness with a base image that does not exist (${engine})`, () => {
    let test: TestApi;
    let adminKey: IssuedKey;

    beforeAll(async () => {
      test = await startTestApi(engine, {
        ...sandboxTestEnvironment('broken-base', engine),
        AGENTDESK_SANDBOX_BASE_IMAGE: missingBase,
        AGENTDESK_SANDBOX_OFFLINE_BASE: 'false',
        AGENTDESK_SANDBOX_WARM_POOL: '0',
        AGENTDESK_SANDBOX_START_RETRY_MS: '100',
      });
      adminKey = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'admin-broken-base'),
        'admin',
      );
    });
    afterAll(async () => {
      await test?.close();
    });

    /** The runtime's "could not start" lines, parsed. */
    const failedStarts = () =>
      test.logs.lines
        .filter((line) => line.includes('the sandbox could not start'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);

    it('reports the sandbox not ready with the reason, and records one failed build across the retries', async () => {
      // Attempt 4 is logged (1, 2, 4, 8, …): by then three retries failed the same way.
      await waitFor(
        () => (failedStarts().some((line) => line['attempts'] === 4) ? true : undefined),
        'the sandbox start’s fourth attempt to be logged as failed',
        { attempts: 1200, state: () => ({ failedStarts: failedStarts() }) },
      );
      const logged = failedStarts();
      expect(logged.map((line) => line['attempts'] ?? 1)).toEqual([1, 2, 4]);
      // The waits double from the configured one.
      expect(logged.map((line) => line['retryInMs'])).toEqual([100, 200, 800]);

      const ready = await test.request({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ready',
        sandbox: {
          status: 'degraded',
          message: expect.stringMatching(new RegExp(`could not start .*${missingBase}`)),
        },
      });
      const sandboxReady = await test.request({ method: 'GET', url: '/readyz/sandbox' });
      expect(sandboxReady.statusCode).toBe(503);
      expect(sandboxReady.json<{ error: { code: string; message: string } }>().error).toMatchObject({
        code: 'NOT_READY',
        message: expect.stringContaining(`base image ${missingBase} is not on the engine`),
      });

      const builds = (
        await test.request({ method: 'GET', url: '/v1/admin/sandbox/builds', key: adminKey.key })
      ).json<{ items: Array<Record<string, unknown>> }>().items;
      expect(builds).toHaveLength(1);
      expect(builds[0]).toMatchObject({
        trigger: 'start-up',
        status: 'failed',
        error: expect.stringContaining(missingBase),
      });
    });
  });
}
