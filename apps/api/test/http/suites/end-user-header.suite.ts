import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@agentdesk/storage';
import { UsageMeter } from '../../../src/shared/metering/usage-meter';
import type { Engine } from '../../support/engines';
import { createLocalUser, issuePortalKey, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { rawHttp, rawRequest, type RawResponse } from '../../support/raw-http';
import { startTestApi, type TestApi } from '../../support/test-api';

type Header = readonly [string, string];

/**
 * Every route that acts for an end user — stateful or stateless, AgentDesk's error shape or
 * OpenAI's — reads `X-End-User-Id` through the one owner resolution, so it refuses the same
 * names the same way. Raw HTTP: `inject` cannot send a header twice.
 */
const routes = [
  { name: 'create a session', method: 'POST', path: '/v1/sessions', body: '{"label":"x"}' },
  { name: 'list sessions', method: 'GET', path: '/v1/sessions', body: '' },
  {
    name: 'a chat completion',
    method: 'POST',
    path: '/v1/chat/completions',
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] }),
  },
] as const;

/** The refusal's text in either error shape (AgentDesk's `{ error: { message } }` or OpenAI's). */
function messageOf(response: RawResponse): string {
  return response.json<{ error: { message: string } }>().error.message;
}

export function describeEndUserHeader(engine: Engine): void {
  describe(`X-End-User-Id on every route that acts for an end user (${engine})`, () => {
    let test: TestApi;
    let url: string;
    let alice: User;
    let aliceKey: IssuedKey;
    let trusted: IssuedKey;
    let untrusted: IssuedKey;

    beforeAll(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
      trusted = await issuePortalKey(test.api.repositories, 'shop', true);
      untrusted = await issuePortalKey(test.api.repositories, 'kiosk', false);
      url = await test.api.listen();
    });
    afterAll(async () => {
      await test.close();
    });

    const send = (
      route: { method: string; path: string; body: string },
      key: string,
      endUser: readonly string[],
      names: readonly string[] = [],
      encoding: 'utf8' | 'latin1' = 'utf8',
    ) =>
      rawHttp(
        url,
        Buffer.from(
          rawRequest(
            `${route.method} ${route.path} HTTP/1.1`,
            [
              ['Host', 'localhost'],
              ['Authorization', `Bearer ${key}`],
              ...(route.body === ''
                ? []
                : ([
                    ['Content-Type', 'application/json'],
                    ['Content-Length', String(Buffer.byteLength(route.body))],
                  ] as Header[])),
              ...endUser.map((value): Header => ['X-End-User-Id', value]),
              ...names.map((value): Header => ['X-End-User-Name', value]),
            ],
            route.body,
          ),
          encoding,
        ),
      );

    const refusals: ReadonlyArray<{
      readonly case: string;
      readonly key: () => string;
      readonly endUser: readonly string[];
      readonly status: number;
      readonly says: RegExp;
    }> = [
      {
        case: 'named twice',
        key: () => trusted.key,
        endUser: ['carol', 'dave'],
        status: 400,
        says: /x-end-user-id.*once/i,
      },
      {
        case: 'named twice, the same name',
        key: () => trusted.key,
        endUser: ['carol', 'carol'],
        status: 400,
        says: /once/,
      },
      { case: 'an empty name', key: () => trusted.key, endUser: [''], status: 400, says: /user id/i },
      {
        case: 'a name too long',
        key: () => trusted.key,
        endUser: ['c'.repeat(257)],
        status: 400,
        says: /256/,
      },
      {
        case: 'a Latin-1 byte',
        key: () => trusted.key,
        endUser: ['zo\u00e9'],
        status: 400,
        says: /x-end-user-id/,
      },
      {
        case: 'a user key naming someone else',
        key: () => aliceKey.key,
        endUser: ['bob'],
        status: 403,
        says: /own user/,
      },
      {
        case: 'an untrusted portal naming anyone',
        key: () => untrusted.key,
        endUser: ['carol'],
        status: 403,
        says: /not trusted/,
      },
    ];

    for (const route of routes) {
      it.each(refusals)(`${route.name}: refuses $case`, async (refusal) => {
        const response = await send(route, refusal.key(), refusal.endUser);
        expect(response.status, response.body).toBe(refusal.status);
        expect(messageOf(response)).toMatch(refusal.says);
        // Every bad name is refused the same way, naming the field as every other refusal does.
        if (refusal.status === 400) expect(messageOf(response)).toMatch(/^header\.x-end-user-id: /);
      });

      it(`${route.name}: a user key may name itself, a trusted portal its end user`, async () => {
        expect((await send(route, aliceKey.key, [alice.id])).status).toBeLessThan(300);
        expect((await send(route, trusted.key, ['carol'])).status).toBeLessThan(300);
      });
    }

    // The display name of the end user: read by one reader on every route that acts for an end user.
    const storingRoutes = [routes[0], routes[2]];
    for (const route of storingRoutes) {
      it(`${route.name}: stores X-End-User-Name as written, sent as raw UTF-8 or percent-encoded`, async () => {
        const slug = route.path.replaceAll('/', '-');
        const spellings = [
          ['raw UTF-8', ' Zoë Ünal 日本 ', 'Zoë Ünal 日本'],
          ['percent-encoded', encodeURIComponent('Élodie 🙂'), 'Élodie 🙂'],
        ] as const;
        for (const [spelling, sent, stored] of spellings) {
          const endUser = `named${slug}-${spelling.replaceAll(' ', '-')}`;
          const response = await send(route, trusted.key, [endUser], [sent]);
          expect(response.status, `${spelling}: ${response.body}`).toBeLessThan(300);
          await test.api.app.get(UsageMeter).flush();
          const user = await test.api.repositories.users.findByExternalId('shop', endUser);
          expect(user?.displayName, spelling).toBe(stored);
        }
      });
    }
    for (const route of routes) {
      it(`${route.name}: refuses an X-End-User-Name that is not UTF-8, or from a caller that names no end user`, async () => {
        const latin1 = await send(route, trusted.key, ['latin1-name'], ['Zoë'], 'latin1');
        expect(latin1.status, latin1.body).toBe(400);
        expect(messageOf(latin1)).toMatch(/^header\.x-end-user-name: must be UTF-8/);
        const badPercent = await send(route, trusted.key, ['percent-name'], ['100% Zoë']);
        expect(badPercent.status, badPercent.body).toBe(400);
        expect(messageOf(badPercent)).toMatch(
          /^header\.x-end-user-name: has a "%" that is no percent-encoding/,
        );
        const fromUser = await send(route, aliceKey.key, [], ['Alice']);
        expect(fromUser.status, fromUser.body).toBe(400);
        expect(messageOf(fromUser)).toMatch(/^header\.x-end-user-name: only a trusted portal/);
        expect(await test.api.repositories.users.findByExternalId('shop', 'latin1-name')).toBeUndefined();
      });
    }

    it('a refused chat completion calls no model and meters nothing', async () => {
      const meter = test.api.app.get(UsageMeter);
      await meter.flush();
      const before = await countUsageEvents(test);
      const calls = test.emulator.requests.length;
      for (const refusal of refusals) await send(routes[2], refusal.key(), refusal.endUser);
      await meter.flush();
      expect(test.emulator.requests.length).toBe(calls);
      expect(await countUsageEvents(test)).toBe(before);
    });

    it('a chat completion is metered for the end user the request resolved; a portal naming nobody, for nobody', async () => {
      // A model name of its own picks this test's events out of the table.
      const model = 'gpt-metered-end-user';
      const completion = {
        ...routes[2],
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }),
      };
      expect((await send(completion, trusted.key, ['erin'])).status).toBe(200);
      expect((await send(completion, trusted.key, [])).status).toBe(200);
      expect((await send(completion, aliceKey.key, [])).status).toBe(200);
      await test.api.app.get(UsageMeter).flush();
      const erin = await test.api.repositories.users.findByExternalId('shop', 'erin');
      expect(erin).toBeDefined();
      const rows = await test.database.database.db
        .selectFrom('usage_events')
        .select(['end_user_id', 'portal_id'])
        .where('model', '=', model)
        .execute();
      expect(rows).toHaveLength(3);
      expect(rows).toEqual(
        expect.arrayContaining([
          { end_user_id: erin?.id, portal_id: 'shop' },
          { end_user_id: null, portal_id: 'shop' },
          { end_user_id: alice.id, portal_id: null },
        ]),
      );
    });
  });
}

async function countUsageEvents(test: TestApi): Promise<number> {
  const row = await test.database.database.db
    .selectFrom('usage_events')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
