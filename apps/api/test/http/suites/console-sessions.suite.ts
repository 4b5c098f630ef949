import type { ConsoleSessionJson, CreatedConsoleSessionJson } from '@agentdesk/api-contract';
import type { AuditEntry } from '@agentdesk/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_SESSION_REQUIRED_MESSAGE } from '../../../src/auth/ways-in';
import { loadConfig } from '../../../src/config/app-config';
import { createApp, type AgentDeskApi } from '../../../src/create-app';
import { AMBIGUOUS_CREDENTIALS_MESSAGE, UNAUTHENTICATED_MESSAGE } from '../../../src/errors/api-error';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueStaffKeys, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { LogCapture } from '../../support/log-capture';
import { emulatorEnvironment } from '../../support/provider-emulator';
import {
  baseTestEnvironment,
  injectRequest,
  startTestApi,
  type InjectResponse,
  type TestApi,
} from '../../support/test-api';

const minute = 60_000;

/**
 * Console sessions held by the API: sign-in with a key makes one, its token is all the console
 * keeps, and sign-out, key revocation, the timeouts and an admin end it on the very next request —
 * the cookie-replay case of issue 18 included. API keys behave as before (their own suites).
 */
export function describeConsoleSessions(engine: Engine): void {
  describe(`console sessions (${engine})`, () => {
    const started: TestApi[] = [];
    const replicas: AgentDeskApi[] = [];
    async function start(environment: Record<string, string> = {}): Promise<TestApi> {
      const test = await startTestApi(engine, environment);
      started.push(test);
      return test;
    }
    afterEach(async () => {
      while (replicas.length > 0) await replicas.pop()?.close();
      while (started.length > 0) await started.pop()?.close();
    });

    /** The console's sign-in: the key the admin typed opens a session; the token is all it keeps. */
    async function signIn(test: TestApi, key: IssuedKey, browser = {}): Promise<CreatedConsoleSessionJson> {
      const response = await test.request({
        method: 'POST',
        url: '/v1/console-sessions',
        key: key.key,
        body: browser,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<CreatedConsoleSessionJson>();
    }
    const withToken = (test: TestApi, token: string, method: 'GET' | 'DELETE', url: string) =>
      test.request({ method, url, headers: { 'x-console-session': token } });
    const expectRefused = (response: InjectResponse) => {
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json<{ error: { code: string; message: string } }>().error).toMatchObject({
        code: 'UNAUTHENTICATED',
        message: CONSOLE_SESSION_REQUIRED_MESSAGE,
      });
    };
    const auditActionsOf = async (test: TestApi): Promise<AuditEntry[]> =>
      (await test.api.repositories.audit.list({}, { limit: 100 })).items;

    it('sign-in with an admin key opens a session that acts as that key, and is audited', async () => {
      const test = await start();
      const { adminKey } = await issueStaffKeys(test.api.repositories);
      const created = await signIn(test, adminKey, {
        clientAddress: '203.0.113.9',
        userAgent: 'Chromium 156',
      });
      expect(created.token).toMatch(/^adcs_[A-Za-z0-9_-]{43}$/);
      expect(created.session).toMatchObject({
        userId: adminKey.stored.ownerUserId,
        user: { externalId: 'root' },
        wayIn: 'api-key',
        apiKeyId: adminKey.stored.id,
        status: 'open',
        clientAddress: '203.0.113.9',
        userAgent: 'Chromium 156',
        endedAt: null,
      });

      const me = await withToken(test, created.token, 'GET', '/v1/me');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ role: 'admin', apiKey: { id: adminKey.stored.id } });
      expect((await withToken(test, created.token, 'GET', '/v1/admin/api-keys')).statusCode).toBe(200);
      // The token is stored only as its hash.
      const stored = await test.api.repositories.consoleSessions.getById(created.session.id);
      expect(JSON.stringify(stored)).not.toContain(created.token);

      const [signInRecord] = (await auditActionsOf(test)).filter(
        (entry) => entry.action === 'console.sign-in',
      );
      expect(signInRecord).toMatchObject({
        actorPrincipalId: adminKey.stored.ownerUserId,
        actorApiKeyId: adminKey.stored.id,
        targetUserId: adminKey.stored.ownerUserId,
        details: { consoleSessionId: created.session.id, wayIn: 'api-key' },
      });
    });

    it('a token copied before sign-out is refused after it, here and on another replica at once', async () => {
      const test = await start();
      const { adminKey } = await issueStaffKeys(test.api.repositories);
      const { token, session } = await signIn(test, adminKey);
      // A second API process over the same database (another replica).
      const logs = new LogCapture();
      const replica = await createApp(
        loadConfig({ ...baseTestEnvironment, ...emulatorEnvironment(test.emulator) }),
        { database: test.database.database, clock: test.database.clock.now, logDestination: logs },
      );
      replicas.push(replica);
      const onReplica = (url: string) =>
        injectRequest(replica, { method: 'GET', url, headers: { 'x-console-session': token } });
      expect((await withToken(test, token, 'GET', '/v1/admin/sessions')).statusCode).toBe(200);
      expect((await onReplica('/v1/admin/api-keys')).statusCode).toBe(200);

      const signedOut = await withToken(test, token, 'DELETE', '/v1/console-sessions/current');
      expect(signedOut.statusCode).toBe(204);

      // The copied cookie's token, replayed: refused on both replicas, on the pages of the issue.
      expectRefused(await withToken(test, token, 'GET', '/v1/admin/sessions'));
      expectRefused(await withToken(test, token, 'GET', '/v1/admin/api-keys'));
      expectRefused(await onReplica('/v1/admin/sessions'));
      expectRefused(await onReplica('/v1/admin/api-keys'));
      expectRefused(await withToken(test, token, 'DELETE', '/v1/console-sessions/current'));
      // The key it was made with is untouched.
      expect((await test.request({ method: 'GET', url: '/v1/me', key: adminKey.key })).statusCode).toBe(200);

      expect(await test.api.repositories.consoleSessions.getById(session.id)).toMatchObject({
        status: 'ended',
        endReason: 'sign-out',
      });
      const [record] = (await auditActionsOf(test)).filter((entry) => entry.action === 'console.sign-out');
      expect(record).toMatchObject({
        actorPrincipalId: adminKey.stored.ownerUserId,
        targetUserId: adminKey.stored.ownerUserId,
        details: { consoleSessionId: session.id },
      });
    });

    it('revoking the key ends the sessions made with it', async () => {
      const test = await start();
      const { adminKey, viewerKey } = await issueStaffKeys(test.api.repositories);
      const first = await signIn(test, viewerKey);
      const second = await signIn(test, viewerKey);
      const admins = await signIn(test, adminKey);
      const revoked = await test.request({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${viewerKey.stored.id}`,
        key: adminKey.key,
      });
      expect(revoked.statusCode).toBe(200);
      expectRefused(await withToken(test, first.token, 'GET', '/v1/admin/sessions'));
      expectRefused(await withToken(test, second.token, 'GET', '/v1/admin/sessions'));
      expect((await withToken(test, admins.token, 'GET', '/v1/admin/sessions')).statusCode).toBe(200);
      const listed = await withToken(
        test,
        admins.token,
        'GET',
        `/v1/admin/console-sessions?userId=${viewerKey.stored.ownerUserId}&includeEnded=true`,
      );
      expect(listed.json<{ items: ConsoleSessionJson[] }>().items.map((item) => item.endReason)).toEqual([
        'key-revoked',
        'key-revoked',
      ]);
    });

    it('a revocation that bypassed the API (the host command) ends the sessions too', async () => {
      const test = await start();
      const { viewerKey } = await issueStaffKeys(test.api.repositories);
      const { token } = await signIn(test, viewerKey);
      await test.api.repositories.apiKeys.revoke(viewerKey.stored.id);
      expectRefused(await withToken(test, token, 'GET', '/v1/admin/sessions'));
    });

    it('ends when unused for the idle timeout, and at the absolute timeout however much it is used', async () => {
      const test = await start({
        AGENTDESK_CONSOLE_SESSION_IDLE_MS: String(10 * minute),
        AGENTDESK_CONSOLE_SESSION_MAX_MS: String(30 * minute),
      });
      const { adminKey, viewerKey } = await issueStaffKeys(test.api.repositories);
      const busy = await signIn(test, viewerKey);
      const idle = await signIn(test, viewerKey);
      const clock = test.database.clock;
      // Used every 5 minutes: past the 10 idle minutes…
      for (let elapsed = 5; elapsed < 30; elapsed += 5) {
        clock.advance(5 * minute);
        const response = await withToken(test, busy.token, 'GET', '/v1/admin/sessions');
        expect(response.statusCode, `busy after ${elapsed} minutes`).toBe(200);
      }
      // …but the idle one ended 10 minutes after its sign-in,
      expectRefused(await withToken(test, idle.token, 'GET', '/v1/admin/sessions'));
      // and the busy one ends 30 minutes after its sign-in.
      clock.advance(5 * minute);
      expectRefused(await withToken(test, busy.token, 'GET', '/v1/admin/sessions'));

      const listed = await test.request({
        method: 'GET',
        url: `/v1/admin/console-sessions?userId=${viewerKey.stored.ownerUserId}&includeEnded=true`,
        key: adminKey.key,
      });
      const items = listed.json<{ items: ConsoleSessionJson[] }>().items;
      expect(items.map((item) => [item.status, item.endReason])).toEqual([
        ['expired', null],
        ['expired', null],
      ]);
      // Nothing open is listed by default.
      const open = await test.request({
        method: 'GET',
        url: '/v1/admin/console-sessions',
        key: adminKey.key,
      });
      expect(open.json<{ items: unknown[] }>().items).toEqual([]);
    });

    it('an admin lists a user’s sessions, ends one, then signs the user out everywhere (each audited)', async () => {
      const test = await start();
      const { adminKey, viewerKey } = await issueStaffKeys(test.api.repositories);
      const viewerId = viewerKey.stored.ownerUserId!;
      const laptop = await signIn(test, viewerKey, { clientAddress: '198.51.100.1', userAgent: 'Laptop' });
      test.database.clock.advance(1_000);
      const phone = await signIn(test, viewerKey, { clientAddress: '198.51.100.2', userAgent: 'Phone' });
      const admin = await signIn(test, adminKey);
      const asAdmin = (method: 'GET' | 'DELETE', url: string) => withToken(test, admin.token, method, url);

      const listed = await asAdmin('GET', `/v1/admin/console-sessions?userId=${viewerId}`);
      expect(listed.statusCode).toBe(200);
      expect(
        listed.json<{ items: ConsoleSessionJson[] }>().items.map((item) => ({
          id: item.id,
          user: item.user?.externalId,
          clientAddress: item.clientAddress,
          userAgent: item.userAgent,
          wayIn: item.wayIn,
          status: item.status,
        })),
      ).toEqual([
        {
          id: phone.session.id,
          user: 'qa',
          clientAddress: '198.51.100.2',
          userAgent: 'Phone',
          wayIn: 'api-key',
          status: 'open',
        },
        {
          id: laptop.session.id,
          user: 'qa',
          clientAddress: '198.51.100.1',
          userAgent: 'Laptop',
          wayIn: 'api-key',
          status: 'open',
        },
      ]);
      const everyone = await asAdmin('GET', '/v1/admin/console-sessions');
      expect(everyone.json<{ items: unknown[] }>().items).toHaveLength(3);

      const ended = await asAdmin('DELETE', `/v1/admin/console-sessions/${laptop.session.id}`);
      expect(ended.statusCode).toBe(200);
      expect(ended.json()).toMatchObject({ status: 'ended', endReason: 'ended-by-admin' });
      expectRefused(await withToken(test, laptop.token, 'GET', '/v1/admin/sessions'));
      expect((await withToken(test, phone.token, 'GET', '/v1/admin/sessions')).statusCode).toBe(200);

      const everywhere = await asAdmin('DELETE', `/v1/admin/users/${viewerId}/console-sessions`);
      expect(everywhere.statusCode).toBe(200);
      expect(everywhere.json()).toEqual({ ended: 1 });
      expectRefused(await withToken(test, phone.token, 'GET', '/v1/admin/sessions'));
      expect((await asAdmin('GET', '/v1/admin/sessions')).statusCode).toBe(200);
      expect((await asAdmin('GET', `/v1/admin/console-sessions?userId=${viewerId}`)).json()).toEqual({
        items: [],
        nextCursor: null,
      });

      const records = (await auditActionsOf(test)).map((entry) => ({
        action: entry.action,
        targetUserId: entry.targetUserId,
        details: entry.details,
      }));
      expect(records).toContainEqual({
        action: 'admin.console-session.end',
        targetUserId: viewerId,
        details: { consoleSessionId: laptop.session.id, endReason: 'ended-by-admin' },
      });
      expect(records).toContainEqual({
        action: 'admin.console-sessions.end-all',
        targetUserId: viewerId,
        details: { ended: 1 },
      });
      expect(records).toContainEqual({
        action: 'admin.console-sessions.list',
        targetUserId: viewerId,
        details: { filter: { userId: viewerId }, count: 2 },
      });
      // Unknown ids are 404s; a viewer may neither list nor end.
      expect(
        (
          await asAdmin(
            'DELETE',
            `/v1/admin/users/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}/console-sessions`,
          )
        ).statusCode,
      ).toBe(404);
      const viewerSession = await signIn(test, viewerKey);
      expect(
        (await withToken(test, viewerSession.token, 'GET', '/v1/admin/console-sessions')).statusCode,
      ).toBe(403);
    });

    it('each route takes only its ways in: a session opens no session, a key does not sign out', async () => {
      const test = await start();
      const { adminKey } = await issueStaffKeys(test.api.repositories);
      const { token } = await signIn(test, adminKey);

      const chained = await test.request({
        method: 'POST',
        url: '/v1/console-sessions',
        headers: { 'x-console-session': token },
        body: {},
      });
      expect(chained.statusCode).toBe(401);
      expect(chained.json<{ error: { message: string } }>().error.message).toContain('it takes an API key');
      const keySignOut = await test.request({
        method: 'DELETE',
        url: '/v1/console-sessions/current',
        key: adminKey.key,
      });
      expect(keySignOut.statusCode).toBe(401);
      expect(keySignOut.json<{ error: { message: string } }>().error.message).toContain(
        'it takes a console session',
      );
      const noCredential = await test.request({ method: 'DELETE', url: '/v1/console-sessions/current' });
      expectRefused(noCredential);

      // Both ways at once: refused like two keys, whichever the route takes.
      const both = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions',
        key: adminKey.key,
        headers: { 'x-console-session': token },
      });
      expect(both.statusCode).toBe(401);
      expect(both.json<{ error: { message: string } }>().error.message).toBe(AMBIGUOUS_CREDENTIALS_MESSAGE);

      // Only admins and viewers sign in to the console.
      const alice = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'alice'),
      );
      const userSignIn = await test.request({
        method: 'POST',
        url: '/v1/console-sessions',
        key: alice.key,
        body: {},
      });
      expect(userSignIn.statusCode).toBe(403);
      // An API key refused on a route that takes keys keeps its one body.
      const badKey = await test.request({
        method: 'POST',
        url: '/v1/console-sessions',
        key: `${adminKey.key}x`,
        body: {},
      });
      expect(badKey.json<{ error: { message: string } }>().error.message).toBe(UNAUTHENTICATED_MESSAGE);
    });

    it('refuses every bad token with one body, and counts bad tokens like bad keys (429 past the limit)', async () => {
      const test = await start({ AGENTDESK_AUTH_FAILURE_LIMIT: '4' });
      const { adminKey } = await issueStaffKeys(test.api.repositories);
      const { token } = await signIn(test, adminKey);
      const bodies = new Set<string>();
      for (const bad of ['', 'not a token', `${token}x`, `adcs_${'A'.repeat(43)}`]) {
        const response = await withToken(test, bad, 'GET', '/v1/admin/sessions');
        expect(response.statusCode, bad).toBe(401);
        bodies.add(JSON.stringify({ ...response.json<{ error: object }>().error, requestId: undefined }));
      }
      expect(bodies.size).toBe(1);
      const twice = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions',
        headers: { 'x-console-session': `${token}, ${token}` },
      });
      expect(twice.statusCode).toBe(429);
      // A valid session is judged on its own, whatever failed from its address before.
      expect((await withToken(test, token, 'GET', '/v1/admin/sessions')).statusCode).toBe(200);
      const metrics = await test.request({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(
        /agentdesk_authentication_failures_total\{reason="console-session:malformed"\} \d/,
      );
    });
  });
}
