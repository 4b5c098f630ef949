import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * Every list with a date range, its range the wrong way round: each answers 400 naming the start
 * field, instead of an empty list (sessions) or a message of its own (usage).
 */
const routes = [
  {
    list: 'a user’s own sessions',
    url: '/v1/sessions?createdFrom=2026-03-02T00:00:00Z&createdBefore=2026-03-01T00:00:00Z',
    as: 'user',
    message: 'createdFrom: must not be after createdBefore',
  },
  {
    list: 'every user’s sessions',
    url: '/v1/admin/sessions?createdFrom=2026-03-02T00:00:00Z&createdBefore=2026-03-01T00:00:00Z',
    as: 'admin',
    message: 'createdFrom: must not be after createdBefore',
  },
  {
    list: 'the audit log',
    url: '/v1/admin/audit?from=2026-03-02T00:00:00Z&before=2026-03-01T00:00:00Z',
    as: 'admin',
    message: 'from: must not be after before',
  },
  {
    list: 'the usage report',
    url: '/v1/admin/usage?groupBy=model&from=2026-03-02&to=2026-03-01',
    as: 'admin',
    message: 'from: must not be after to',
  },
] as const;

export function describeListDateRanges(engine: Engine): void {
  describe(`lists refuse a date range the wrong way round (${engine})`, () => {
    let test: TestApi;
    let keys: Record<'user' | 'admin', IssuedKey>;

    beforeAll(async () => {
      test = await startTestApi(engine);
      const { repositories } = test.api;
      keys = {
        user: await issueUserKey(repositories, await createLocalUser(repositories, 'alice')),
        admin: await issueUserKey(repositories, await createLocalUser(repositories, 'ops'), 'admin'),
      };
    });
    afterAll(async () => {
      await test.close();
    });

    it.each(routes)('$list: 400 "$message"', async ({ url, as, message }) => {
      const response = await test.request({ method: 'GET', url, key: keys[as].key });
      expect(response.statusCode).toBe(400);
      const body = response.json<ErrorBody>();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.message).toContain(message);
    });

    it.each(routes)('$list: the same range the right way round is accepted', async ({ url, as }) => {
      const swapped = url
        .replace('2026-03-02', 'SWAP')
        .replace('2026-03-01', '2026-03-02')
        .replace('SWAP', '2026-03-01');
      const response = await test.request({ method: 'GET', url: swapped, key: keys[as].key });
      expect(response.statusCode).toBe(200);
    });
  });
}
