import { Controller, Get, Module } from '@nestjs/common';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/app-config';
import { AMBIGUOUS_CREDENTIALS_MESSAGE } from '../../../src/errors/api-error';
import { createApp } from '../../../src/create-app';
import { generateApiKey } from '../../../src/core/api-key-format';
import { issueFirstAdminKeyAtStart } from '../../../src/startup/first-admin-key';
import { RegisteredRoutes, RouteInventory } from '../../../src/routes/route-inventory';
import type { Engine } from '../../support/engines';
import { testDatabaseFactories } from '../../support/engines';
import { createLocalUser, issuePortalKey, issueUserKey } from '../../support/fixtures';
import { LogCapture } from '../../support/log-capture';
import { rawHttp, rawRequest } from '../../support/raw-http';
import { baseTestEnvironment, startTestApi, type TestApi } from '../../support/test-api';

/** A controller that forgot its policy: the global guard must refuse it. */
@Controller('v1/forgotten')
class ForgottenPolicyController {
  @Get()
  leak(): { secret: string } {
    return { secret: 'should never be served' };
  }
}

@Module({ controllers: [ForgottenPolicyController] })
class ForgottenPolicyModule {}

export function describeAuthAndLimits(engine: Engine): void {
  describe(`authentication, guard and limits (${engine})`, () => {
    const started: TestApi[] = [];
    async function start(
      environment: Record<string, string> = {},
      extraModules?: Parameters<typeof startTestApi>[2],
    ): Promise<TestApi> {
      const test = await startTestApi(engine, environment, extraModules);
      started.push(test);
      return test;
    }
    afterEach(async () => {
      while (started.length > 0) await started.pop()?.close();
    });

    it('accepts a key in Authorization: Bearer and in X-API-Key, and refuses every bad credential with one body', async () => {
      const test = await start();
      const alice = await createLocalUser(test.api.repositories, 'alice');
      const { key } = await issueUserKey(test.api.repositories, alice);
      const get = (headers: Record<string, string>) =>
        test.api.app.inject({ method: 'GET', url: '/v1/sessions', headers });

      expect((await get({ authorization: `Bearer ${key}` })).statusCode).toBe(200);
      expect((await get({ authorization: `bearer ${key}` })).statusCode).toBe(200);
      expect((await get({ 'x-api-key': key })).statusCode).toBe(200);

      const other = generateApiKey().key;
      const refused: Array<Record<string, string>> = [
        {},
        { authorization: `Basic ${Buffer.from(`alice:${key}`).toString('base64')}` },
        { authorization: 'Bearer' },
        { 'x-api-key': other },
        { 'x-api-key': key.slice(0, -1) },
        { 'x-api-key': `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}` },
        { 'x-api-key': key.toUpperCase() },
        { 'x-api-key': 'not a key at all' },
      ];
      const bodies = new Set<string>();
      for (const headers of refused) {
        const response = await get(headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        const body = response.json<{ error: { code: string; message: string; requestId: string } }>();
        expect(body.error.requestId).toBe(response.headers['x-request-id']);
        bodies.add(JSON.stringify({ ...body.error, requestId: undefined }));
      }
      expect(bodies.size).toBe(1);
      expect([...bodies][0]).toContain('UNAUTHENTICATED');

      // More than one credential is refused before any key is checked, even when they are the same
      // key (the server never picks one), with a wording of its own that says nothing about the keys.
      const ambiguous: Array<Record<string, string>> = [
        { authorization: `Bearer ${key}`, 'x-api-key': other },
        { authorization: `Bearer ${other}`, 'x-api-key': key },
        { authorization: `Bearer ${key}`, 'x-api-key': key },
        { 'x-api-key': `${key}, ${key}` },
      ];
      for (const headers of ambiguous) {
        const response = await get(headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        expect(response.json<{ error: { code: string; message: string } }>().error).toMatchObject({
          code: 'UNAUTHENTICATED',
          message: AMBIGUOUS_CREDENTIALS_MESSAGE,
        });
      }
    });

    it('a key whose embedded id does not match its stored id is refused', async () => {
      const test = await start();
      const alice = await createLocalUser(test.api.repositories, 'alice');
      const { key, stored } = await issueUserKey(test.api.repositories, alice);
      const otherId = generateApiKey().visiblePrefix.slice(4);
      const forged = key.replace(stored.id.replaceAll('-', ''), otherId);
      expect(forged).not.toBe(key);
      const response = await test.request({ method: 'GET', url: '/v1/sessions', key: forged });
      expect(response.statusCode).toBe(401);
    });

    it('revocation takes effect on the very next request, even on a kept-alive connection', async () => {
      const test = await start({ PORT: '0' });
      const admin = await createLocalUser(test.api.repositories, 'admin-2');
      const adminKey = await issueUserKey(test.api.repositories, admin, 'admin');
      const created = await test.request({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: adminKey.key,
        body: { role: 'user', label: 'to revoke', externalId: 'alice' },
      });
      expect(created.statusCode).toBe(201);
      const { key, apiKey } = created.json<{ key: string; apiKey: { id: string } }>();

      const url = await test.api.listen();
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const sockets = new Set<unknown>();
        const call = (path: string, headers: Record<string, string>, method = 'GET') =>
          new Promise<number>((resolve, reject) => {
            const request = http.request(`${url}${path}`, { agent, method, headers }, (response) => {
              sockets.add(response.socket);
              response.resume();
              response.on('end', () => resolve(response.statusCode ?? 0));
            });
            request.on('error', reject);
            request.end();
          });
        expect(await call('/v1/sessions', { 'x-api-key': key })).toBe(200);
        expect(
          await call(
            `/v1/admin/api-keys/${apiKey.id}`,
            { authorization: `Bearer ${adminKey.key}` },
            'DELETE',
          ),
        ).toBe(200);
        expect(await call('/v1/sessions', { 'x-api-key': key })).toBe(401);
        expect(sockets.size).toBe(1);
      } finally {
        agent.destroy();
      }
      const listed = await test.request({
        method: 'GET',
        url: '/v1/admin/api-keys?includeRevoked=true',
        key: adminKey.key,
      });
      const revoked = listed
        .json<{ items: Array<{ id: string; revokedAt: string | null }> }>()
        .items.find((item) => item.id === apiKey.id);
      expect(revoked?.revokedAt).not.toBeNull();
      const activeOnly = await test.request({ method: 'GET', url: '/v1/admin/api-keys', key: adminKey.key });
      expect(activeOnly.json<{ items: Array<{ id: string }> }>().items.map((item) => item.id)).not.toContain(
        apiKey.id,
      );
    });

    it('creates an admin key on first start only, and takes one from AGENTDESK_ADMIN_KEY without printing it', async () => {
      const database = await testDatabaseFactories[engine]();
      const logs = new LogCapture();
      try {
        const config = loadConfig(baseTestEnvironment);
        const first = await createApp(config, { database: database.database, logDestination: logs });
        // The key is created once the server listens (startApi calls issueFirstAdminKey then), never before.
        expect(first.bootstrap.adminKeySource).toBe('none');
        expect((await first.repositories.apiKeys.list({ includeRevoked: true })).items).toEqual([]);
        const generated = await issueFirstAdminKeyAtStart(first.repositories, first.logger);
        expect(generated).toMatch(/^adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
        expect(await issueFirstAdminKeyAtStart(first.repositories, first.logger)).toBeUndefined();
        // Created with no API call, it is in the audit log all the same: by the host, at start-up.
        const created = await first.repositories.audit.list({ action: 'admin.api-key.create' }, {});
        expect(created.items.map((entry) => [entry.actorKind, entry.wayIn, entry.details])).toEqual([
          [
            'host',
            'start-up',
            expect.objectContaining({
              role: 'admin',
              source: 'first-start',
              label: 'Bootstrap admin key (first start)',
            }),
          ],
        ]);
        const asAdmin = await first.app.inject({
          method: 'GET',
          url: '/v1/admin/audit',
          headers: { authorization: `Bearer ${generated}` },
        });
        expect(asAdmin.statusCode).toBe(200);
        await first.close();

        const second = await createApp(config, { database: database.database, logDestination: logs });
        expect(second.bootstrap.adminKeySource).toBe('existing');
        await second.close();

        const environmentKey = generateApiKey().key;
        const third = await createApp(
          loadConfig({ ...baseTestEnvironment, AGENTDESK_ADMIN_KEY: environmentKey }),
          {
            database: database.database,
            logDestination: logs,
          },
        );
        expect(third.bootstrap.adminKeySource).toBe('environment');
        for (const headers of [
          { authorization: `Bearer ${environmentKey}` },
          { 'x-api-key': environmentKey },
        ]) {
          expect(
            (await third.app.inject({ method: 'GET', url: '/v1/admin/api-keys', headers })).statusCode,
          ).toBe(200);
        }
        await third.app.inject({
          method: 'GET',
          url: '/v1/sessions',
          headers: { 'x-api-key': `${environmentKey}x` },
        });
        await third.close();

        // Restarting with the same key is idempotent; once revoked, the start refuses to re-enable it.
        const fourth = await createApp(
          loadConfig({ ...baseTestEnvironment, AGENTDESK_ADMIN_KEY: environmentKey }),
          {
            database: database.database,
            logDestination: logs,
          },
        );
        expect(fourth.bootstrap.adminKeySource).toBe('environment');
        const environmentKeyId = (await fourth.repositories.apiKeys.list({}, { limit: 100 })).items.find(
          (item) => item.label.includes('AGENTDESK_ADMIN_KEY'),
        )?.id;
        // Stored by the third start (recorded once, with where it came from); the fourth found it.
        const fromEnvironment = await fourth.repositories.audit.list({ action: 'admin.api-key.create' }, {});
        expect(
          fromEnvironment.items
            .filter((entry) => entry.target?.id === environmentKeyId)
            .map((entry) => [entry.actorKind, entry.wayIn, entry.details?.['source']]),
        ).toEqual([['host', 'start-up', 'environment']]);
        await fourth.repositories.apiKeys.revoke(environmentKeyId ?? 'missing');
        await fourth.close();
        await expect(
          createApp(loadConfig({ ...baseTestEnvironment, AGENTDESK_ADMIN_KEY: environmentKey }), {
            database: database.database,
            logDestination: logs,
          }),
        ).rejects.toBeInstanceOf(ConfigError);

        const logged = logs.text();
        expect(logged.length).toBeGreaterThan(0);
        for (const secret of [
          generated ?? 'unset',
          environmentKey,
          // The secret part alone (base64url may itself contain `_`, so cut by length, not by `_`).
          environmentKey.slice(-43),
          (generated ?? '').slice(-43),
        ]) {
          expect(logged).not.toContain(secret);
        }
      } finally {
        await database.cleanup();
      }
    });

    it('dev mode: requests without a key act as the anonymous local user, from loopback only, with a loud warning', async () => {
      const test = await start({ AGENTDESK_DEV_MODE: 'true' });
      expect(test.logs.text()).toContain('DEV MODE IS ON');
      const created = await test.api.app.inject({
        method: 'POST',
        url: '/v1/sessions',
        payload: { label: 'local' },
      });
      expect(created.statusCode).toBe(201);
      const listed = await test.api.app.inject({ method: 'GET', url: '/v1/sessions' });
      expect(listed.json<{ items: Array<{ label: string }> }>().items.map((item) => item.label)).toEqual([
        'local',
      ]);
      // Only the anonymous user's own data: admin functions stay closed.
      expect((await test.api.app.inject({ method: 'GET', url: '/v1/admin/sessions' })).statusCode).toBe(403);
      // A presented but bad key never falls back to anonymous.
      expect(
        (
          await test.api.app.inject({
            method: 'GET',
            url: '/v1/sessions',
            headers: { 'x-api-key': 'adk_wrong' },
          })
        ).statusCode,
      ).toBe(401);
      // Not from another machine.
      expect(
        (await test.api.app.inject({ method: 'GET', url: '/v1/sessions', remoteAddress: '10.1.2.3' }))
          .statusCode,
      ).toBe(401);

      const normal = await start();
      expect((await normal.api.app.inject({ method: 'GET', url: '/v1/sessions' })).statusCode).toBe(401);
      expect(normal.logs.text()).not.toContain('DEV MODE IS ON');
    });

    it('rate-limits per principal with 429 and Retry-After', async () => {
      const test = await start({ AGENTDESK_RATE_LIMIT_MAX: '3', AGENTDESK_RATE_LIMIT_WINDOW_MS: '60000' });
      const alice = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'alice'),
      );
      const bob = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'bob'),
      );
      for (let index = 0; index < 3; index += 1) {
        expect((await test.request({ method: 'GET', url: '/v1/sessions', key: alice.key })).statusCode).toBe(
          200,
        );
      }
      const limited = await test.request({ method: 'GET', url: '/v1/sessions', key: alice.key });
      expect(limited.statusCode).toBe(429);
      expect(limited.json<{ error: { code: string } }>().error.code).toBe('RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another principal has its own budget; public routes are not counted.
      expect((await test.request({ method: 'GET', url: '/v1/sessions', key: bob.key })).statusCode).toBe(200);
      expect((await test.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });

    it('a request presenting more than one credential is refused, whichever comes first (raw HTTP)', async () => {
      const test = await start({ AGENTDESK_DEV_MODE: 'true' });
      const user = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'alice'),
      );
      const admin = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'boss'),
        'admin',
      );
      const url = await test.api.listen();
      const send = (path: string, headers: Array<readonly [string, string]>) =>
        rawHttp(url, rawRequest(`GET ${path} HTTP/1.1`, [['Host', 'localhost'], ...headers]));
      const status = async (path: string, headers: Array<readonly [string, string]>) =>
        (await send(path, headers)).status;

      // One credential: judged as usual.
      expect(await status('/v1/admin/audit', [['Authorization', `Bearer ${admin.key}`]])).toBe(200);
      expect(await status('/v1/sessions', [['X-API-Key', user.key]])).toBe(200);
      const ambiguous: Array<Array<readonly [string, string]>> = [
        [
          ['Authorization', `Bearer ${user.key}`],
          ['Authorization', `Bearer ${admin.key}`],
        ],
        [
          ['Authorization', `Bearer ${admin.key}`],
          ['authorization', `Bearer ${user.key}`],
        ],
        [
          ['Authorization', `Bearer ${admin.key}`],
          ['Authorization', `Bearer ${admin.key}`],
        ],
        [
          ['Authorization', `Bearer ${admin.key}`],
          ['X-API-Key', admin.key],
        ],
        [
          ['X-API-Key', user.key],
          ['Authorization', `Bearer ${admin.key}`],
        ],
        [
          ['X-API-Key', admin.key],
          ['X-Api-Key', user.key],
        ],
        [['X-API-Key', `${admin.key}, ${user.key}`]],
        [['X-API-Key', `${admin.key},${user.key}`]],
        [['Authorization', `Bearer ${admin.key}, Bearer ${user.key}`]],
        [['Authorization', `Bearer ${admin.key},${user.key}`]],
        // An empty second header is still a second credential; dev mode never falls back to anonymous.
        [
          ['Authorization', `Bearer ${admin.key}`],
          ['X-API-Key', ''],
        ],
      ];
      for (const headers of ambiguous) {
        for (const path of ['/v1/admin/audit', '/v1/sessions']) {
          const response = await send(path, headers);
          expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
          // Says what to fix, and nothing about whether either key is valid.
          expect(response.json<{ error: { message: string } }>().error.message).toBe(
            AMBIGUOUS_CREDENTIALS_MESSAGE,
          );
        }
      }
      const metrics = await test.request({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/agentdesk_authentication_failures_total\{reason="ambiguous"\} 22/);
    });

    it('a trusted portal naming two end users in one request is refused, not joined into one name (raw HTTP)', async () => {
      const test = await start();
      const portal = await issuePortalKey(test.api.repositories, 'shop', true);
      const url = await test.api.listen();
      const send = (method: 'GET' | 'POST', names: string[]) =>
        rawHttp(
          url,
          rawRequest(
            `${method} /v1/sessions HTTP/1.1`,
            [
              ['Host', 'localhost'],
              ['Authorization', `Bearer ${portal.key}`],
              ...names.map((name) => ['X-End-User-Id', name] as const),
              ...(method === 'POST'
                ? ([
                    ['Content-Type', 'application/json'],
                    ['Content-Length', '2'],
                  ] as const)
                : []),
            ],
            method === 'POST' ? '{}' : '',
          ),
        );
      for (const method of ['GET', 'POST'] as const) {
        const refused = await send(method, ['carol', 'dave']);
        expect(refused.status, method).toBe(400);
        expect(refused.json<{ error: { message: string } }>().error.message).toContain('x-end-user-id');
      }
      expect(await test.api.repositories.users.findByExternalId('shop', 'carol, dave')).toBeUndefined();
      expect((await send('POST', ['carol'])).status).toBe(201);
      // One header whose value holds a comma is one (odd) name, judged as such.
      expect((await send('GET', ['carol, dave'])).status).toBe(200);
    });

    it('failed credentials never lock out a valid key from the same address; guessing one key id gets 429', async () => {
      const test = await start({ AGENTDESK_AUTH_FAILURE_LIMIT: '3' });
      const alice = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'alice'),
      );
      const bob = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'bob'),
      );
      const fromOffice = (key: string | undefined) =>
        test.api.app.inject({
          method: 'GET',
          url: '/v1/sessions',
          remoteAddress: '203.0.113.7',
          headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
        });
      // Requests without any key are not guesses.
      for (let index = 0; index < 5; index += 1) expect((await fromOffice(undefined)).statusCode).toBe(401);
      // Fifty bad keys from one address (a whole office behind one NAT, or a scanner)…
      for (let index = 0; index < 50; index += 1) {
        const status = (await fromOffice(index % 2 === 0 ? generateApiKey().key : 'not-a-key')).statusCode;
        expect([401, 429]).toContain(status);
      }
      // …then every valid key from that address still works.
      expect((await fromOffice(alice.key)).statusCode).toBe(200);
      expect((await fromOffice(bob.key)).statusCode).toBe(200);

      // A brute force against one key id: the first failures are 401, then 429 with Retry-After.
      const guess = () => generateApiKey(alice.stored.id).key;
      for (let index = 0; index < 3; index += 1) expect((await fromOffice(guess())).statusCode).toBe(401);
      const limited = await fromOffice(guess());
      expect(limited.statusCode).toBe(429);
      expect(limited.json<{ error: { code: string } }>().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The key's owner is still judged on their own key, and other key ids are not affected.
      expect((await fromOffice(alice.key)).statusCode).toBe(200);
      expect((await fromOffice(generateApiKey(bob.stored.id).key)).statusCode).toBe(401);
      // Another address guessing the same key id has its own budget.
      const elsewhere = await test.api.app.inject({
        method: 'GET',
        url: '/v1/sessions',
        headers: { authorization: `Bearer ${guess()}` },
        remoteAddress: '198.51.100.9',
      });
      expect(elsewhere.statusCode).toBe(401);
      const metrics = await test.request({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/agentdesk_rate_limited_total\{limit="auth-failures"\} [1-9]/);
    });

    it('refuses bodies over the configured limit with 413, over a real socket too', async () => {
      const test = await start({ AGENTDESK_BODY_LIMIT_BYTES: '2048', PORT: '0' });
      const alice = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'alice'),
      );
      const small = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: alice.key,
        body: { label: 'x'.repeat(100) },
      });
      expect(small.statusCode).toBe(201);
      const large = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: alice.key,
        body: { systemPrompt: 'x'.repeat(5000) },
      });
      expect(large.statusCode).toBe(413);
      expect(large.json<{ error: { code: string } }>().error.code).toBe('PAYLOAD_TOO_LARGE');

      const url = await test.api.listen();
      const response = await fetch(`${url}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { blob: 'y'.repeat(10_000) } }),
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
      const count = await test.request({ method: 'GET', url: '/v1/sessions', key: alice.key });
      expect(count.json<{ items: unknown[] }>().items).toHaveLength(1);
    });

    it('refuses page sizes over the limit instead of silently capping them', async () => {
      const test = await start();
      const alice = await createLocalUser(test.api.repositories, 'alice');
      const { key } = await issueUserKey(test.api.repositories, alice);
      const admin = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'boss'),
        'admin',
      );
      const session = await test.api.repositories.sessions.create({ ownerUserId: alice.id });
      const status = async (url: string, requestKey = key) =>
        (await test.request({ method: 'GET', url, key: requestKey })).statusCode;

      expect(await status('/v1/sessions?limit=100')).toBe(200);
      expect(await status('/v1/sessions?limit=1')).toBe(200);
      const tooLarge = await test.request({ method: 'GET', url: '/v1/sessions?limit=101', key });
      expect(tooLarge.statusCode).toBe(400);
      expect(tooLarge.json<{ error: { message: string } }>().error.message).toBe(
        'query.limit: must be a whole number from 1 to 100',
      );
      // Every refusal names the range, a whole number of any length too (it is one, just too large).
      for (const limit of ['0', '-1', '1.5', 'ten', '', '1e3', '99999999999999999999', '1'.repeat(400)]) {
        const refused = await test.request({ method: 'GET', url: `/v1/sessions?limit=${limit}`, key });
        expect(refused.statusCode, limit).toBe(400);
        expect(refused.json<{ error: { message: string } }>().error.message, limit).toBe(
          'query.limit: must be a whole number from 1 to 100',
        );
      }
      expect(await status(`/v1/sessions/${session.id}/messages?limit=500`)).toBe(200);
      expect(await status(`/v1/sessions/${session.id}/messages?limit=501`)).toBe(400);
      for (const url of ['/v1/admin/sessions', '/v1/admin/users', '/v1/admin/api-keys', '/v1/admin/audit']) {
        expect(await status(`${url}?limit=100`, admin.key), url).toBe(200);
        for (const limit of ['101', '99999999999999999999']) {
          const refused = await test.request({ method: 'GET', url: `${url}?limit=${limit}`, key: admin.key });
          expect(refused.statusCode, url).toBe(400);
          expect(refused.json<{ error: { message: string } }>().error.message, url).toBe(
            'query.limit: must be a whole number from 1 to 100',
          );
        }
      }
      const suites = await test.request({
        method: 'GET',
        url: '/v1/qa/suites?limit=99999999999999999999',
        key: admin.key,
      });
      expect(suites.json<{ error: { message: string } }>().error.message).toBe(
        'query.limit: must be a whole number from 1 to 50',
      );
    });

    it('rejects unknown body fields and mass-assigned ownership or role, naming the field', async () => {
      const test = await start();
      const alice = await createLocalUser(test.api.repositories, 'alice');
      const bob = await createLocalUser(test.api.repositories, 'bob');
      const { key } = await issueUserKey(test.api.repositories, alice);
      const session = await test.api.repositories.sessions.create({ ownerUserId: alice.id, label: 'mine' });
      const cases: Array<{
        method: 'POST' | 'PATCH';
        url: string;
        body: Record<string, unknown>;
        field: string;
        message: string;
      }> = [
        {
          method: 'POST',
          url: '/v1/sessions',
          body: { label: 'x', userId: bob.id },
          field: 'userId',
          message: 'may not be set by the client',
        },
        {
          method: 'POST',
          url: '/v1/sessions',
          body: { label: 'x', ownerUserId: bob.id },
          field: 'ownerUserId',
          message: 'may not be set by the client',
        },
        {
          method: 'POST',
          url: '/v1/sessions',
          body: { label: 'x', role: 'admin' },
          field: 'role',
          message: 'may not be set by the client',
        },
        {
          method: 'POST',
          url: '/v1/sessions',
          body: { label: 'x', colour: 'blue' },
          field: 'colour',
          message: 'unknown field',
        },
        {
          method: 'PATCH',
          url: `/v1/sessions/${session.id}`,
          body: { label: 'x', userId: bob.id },
          field: 'userId',
          message: 'may not be set by the client',
        },
        {
          method: 'PATCH',
          url: `/v1/sessions/${session.id}`,
          body: { status: 'closed' },
          field: 'status',
          message: 'may not be set by the client',
        },
        {
          method: 'POST',
          url: `/v1/sessions/${session.id}/close`,
          body: { role: 'admin' },
          field: 'role',
          message: 'may not be set by the client',
        },
      ];
      for (const item of cases) {
        const response = await test.request({ method: item.method, url: item.url, key, body: item.body });
        expect(response.statusCode, JSON.stringify(item)).toBe(400);
        expect(response.json<{ error: { message: string } }>().error.message).toContain(
          `body.${item.field}: ${item.message}`,
        );
      }
      const unknownQuery = await test.request({ method: 'GET', url: `/v1/sessions?userId=${bob.id}`, key });
      expect(unknownQuery.statusCode).toBe(400);
      expect(unknownQuery.json<{ error: { message: string } }>().error.message).toContain('query.userId');

      expect((await test.api.repositories.sessions.listForOwner(bob.id)).items).toEqual([]);
      expect((await test.api.repositories.sessions.getForOwner(alice.id, session.id)).label).toBe('mine');
      expect((await test.api.repositories.sessions.listForOwner(alice.id)).items).toHaveLength(1);
    });

    it('carries the server’s own request id through the response header, the error body and the logs; a client’s id is only logged beside it', async () => {
      const test = await start();
      const generated = await test.request({ method: 'GET', url: '/v1/sessions' });
      const id = generated.headers['x-request-id'];
      expect(String(id)).toMatch(/^[0-9a-f-]{36}$/);
      expect(generated.json<{ error: { requestId: string } }>().error.requestId).toBe(id);
      expect(test.logs.lines.some((line) => line.includes(`"requestId":"${String(id)}"`))).toBe(true);

      // A client cannot choose the request id (it could name another request's): it is logged apart.
      const chosen = await test.request({
        method: 'GET',
        url: '/v1/sessions',
        headers: { 'x-request-id': 'proxy-abc.123' },
      });
      const serverId = String(chosen.headers['x-request-id']);
      expect(serverId).not.toBe('proxy-abc.123');
      expect(serverId).toMatch(/^[0-9a-f-]{36}$/);
      expect(chosen.json<{ error: { requestId: string } }>().error.requestId).toBe(serverId);
      const logged = test.logs.lines.filter((line) => line.includes(`"requestId":"${serverId}"`));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.every((line) => line.includes('"clientRequestId":"proxy-abc.123"'))).toBe(true);
      expect(test.logs.lines.some((line) => line.includes('"requestId":"proxy-abc.123"'))).toBe(false);

      const malformed = await test.request({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-request-id': 'bad id with spaces' },
      });
      expect(String(malformed.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
      expect(test.logs.text()).not.toContain('bad id with spaces');
    });

    it('denies by default: a route without a policy is refused and reported by the inventory', async () => {
      const test = await start({}, { extraModules: [ForgottenPolicyModule] });
      const admin = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'boss'),
        'admin',
      );
      const routes = test.api.app.get(RouteInventory).routes();
      expect(
        routes.filter((route) => route.policy === undefined).map((route) => `${route.method} ${route.path}`),
      ).toEqual(['GET /v1/forgotten']);
      for (const key of [undefined, admin.key]) {
        const response = await test.request({
          method: 'GET',
          url: '/v1/forgotten',
          ...(key === undefined ? {} : { key }),
        });
        expect(response.statusCode).toBe(403);
        expect(response.body).not.toContain('should never be served');
      }
      expect(test.logs.text()).toContain('route has no access policy');
    });

    it('every route Fastify serves is a Nest route with a policy (nothing bypasses the guard)', async () => {
      const test = await start();
      const inventory = test.api.app.get(RouteInventory).routes();
      expect(inventory.filter((route) => route.policy === undefined)).toEqual([]);
      const known = new Set(inventory.map((route) => `${route.method} ${route.path}`));
      const served = test.api.app
        .get(RegisteredRoutes)
        .routes.filter((route) => route.method !== 'HEAD')
        .map((route) => `${route.method} ${route.path}`);
      expect(served.length).toBeGreaterThan(10);
      expect(served.filter((route) => !known.has(route))).toEqual([]);
    });

    it('health, readiness (database), metrics and the OpenAPI document', async () => {
      const test = await start();
      expect((await test.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await test.request({ method: 'GET', url: '/readyz' })).json()).toEqual({
        status: 'ready',
        database: engine,
        sandbox: { status: 'disabled', engine: 'none (sandbox disabled)' },
        rateLimits: { scope: 'per-process', redis: 'not-configured' },
      });
      await test.request({ method: 'GET', url: '/v1/sessions', key: generateApiKey().key });

      const metrics = await test.request({ method: 'GET', url: '/metrics' });
      expect(metrics.headers['content-type']).toContain('text/plain');
      expect(metrics.body).toContain('agentdesk_http_request_duration_seconds_bucket');
      expect(metrics.body).toContain('route="/v1/sessions"');
      expect(metrics.body).toMatch(
        /agentdesk_authentication_failures_total\{reason="unknown-or-revoked"\} 1/,
      );
      expect(metrics.body).toContain('process_cpu_user_seconds_total');
      // Without AGENTDESK_REDIS_URL each process counts its own limits, and says so.
      expect(metrics.body).toMatch(/^agentdesk_rate_limits_per_process 1$/m);
      expect(metrics.body).not.toContain('agentdesk_redis_available');

      const document = (await test.request({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<
          string,
          Record<
            string,
            {
              security?: unknown[];
              requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
            }
          >
        >;
        components: { securitySchemes: Record<string, unknown> };
      }>();
      // Keys two ways; the console's session (issue 18) a third, named only where it is the one way in.
      expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
        'api-key',
        'bearer',
        'console-session',
      ]);
      for (const route of test.api.app.get(RouteInventory).routes()) {
        if (route.path === '/openapi.json' || route.path.startsWith('/docs')) continue;
        const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
        expect(operation, `${route.method} ${route.path} in the OpenAPI document`).toBeDefined();
        if (route.policy?.kind === 'scope')
          expect(operation?.security, route.path).toEqual(
            route.policy.ways.includes('api-key')
              ? [{ bearer: [] }, { 'api-key': [] }]
              : [{ 'console-session': [] }],
          );
        const bodySchema = operation?.requestBody?.content['application/json']?.schema;
        if (route.method === 'PATCH' || (route.method === 'POST' && !route.path.endsWith('/close'))) {
          expect(bodySchema, `${route.method} ${route.path} body schema`).toBeDefined();
        }
      }
      const createSession =
        document.paths['/v1/sessions']?.['post']?.requestBody?.content['application/json']?.schema;
      expect(createSession).toMatchObject({ type: 'object', additionalProperties: false });

      const docs = await test.request({ method: 'GET', url: '/docs' });
      expect(docs.headers['content-type']).toContain('text/html');
      expect(docs.body).toContain('swagger-ui-bundle.js');
      expect((await test.request({ method: 'GET', url: '/docs/swagger-ui-bundle.js' })).statusCode).toBe(200);
      expect((await test.request({ method: 'GET', url: '/docs/package.json' })).statusCode).toBe(404);
    });

    it('readiness fails with 503 when the database is gone, liveness does not', async () => {
      const test = await start();
      await test.database.database.destroy();
      const ready = await test.request({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json<{ error: { code: string } }>().error.code).toBe('NOT_READY');
      expect((await test.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });
  });
}
