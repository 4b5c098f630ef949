import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonJson, SessionJson } from '@agentdesk/api-contract';
import { newId, type User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import {
  createSession,
  issuePortalKey,
  issueStaffKeys,
  issueUserKey,
  type IssuedKey,
} from '../../support/fixtures';
import { rawHttp, rawRequest } from '../../support/raw-http';
import { startTestApi, type TestApi } from '../../support/test-api';

interface PageBody<T> {
  items: T[];
  nextCursor: string | null;
}

/** The people directory, a person's page, names next to ids, and a portal's end-user names. */
export function describePeople(engine: Engine): void {
  describe(`people directory and names (${engine})`, () => {
    let test: TestApi;
    let url: string;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;
    let portalKey: IssuedKey;
    let userKey: IssuedKey;
    let alice: User;
    let bob: User;
    let carol: User;

    beforeAll(async () => {
      test = await startTestApi(engine);
      ({ adminKey, viewerKey } = await issueStaffKeys(test.api.repositories));
      const { users } = test.api.repositories;
      alice = await users.create({ externalId: 'alice', displayName: 'Alice Liddell' });
      bob = await users.create({ externalId: 'bob', displayName: 'Bob Stone' });
      carol = await users.create({ externalId: 'carol', displayName: 'Carol Jones' });
      userKey = await issueUserKey(test.api.repositories, alice);
      portalKey = await issuePortalKey(test.api.repositories, 'shop', true);
      for (const owner of [alice, alice, bob, carol]) await createSession(test.api.repositories, owner);
      url = await test.api.listen();
    });
    afterAll(async () => {
      await test.close();
    });

    it('finds a person by the start of their name, any case, with their role and session count', async () => {
      const response = await test.request({
        method: 'GET',
        url: '/v1/admin/users?q=ALI',
        key: viewerKey.key,
      });
      expect(response.statusCode).toBe(200);
      const items = response.json<PageBody<PersonJson>>().items;
      expect(items.map((person) => person.id)).toEqual([alice.id]);
      expect(items[0]).toMatchObject({ displayName: 'Alice Liddell', role: 'user', sessionCount: 2 });
      const byRole = await test.request({
        method: 'GET',
        url: '/v1/admin/users?role=viewer',
        key: viewerKey.key,
      });
      expect(byRole.json<PageBody<PersonJson>>().items.map((person) => person.externalId)).toEqual(['qa']);
      const records = (await test.api.repositories.audit.list({ action: 'admin.users.list' })).items;
      expect(records[0]).toMatchObject({ details: { filter: { role: 'viewer' }, count: 1 } });
    });

    it('refuses a bad filter naming the field, and a range the wrong way round', async () => {
      const badRole = await test.request({
        method: 'GET',
        url: '/v1/admin/users?role=king',
        key: adminKey.key,
      });
      expect(badRole.statusCode).toBe(400);
      expect(badRole.body).toContain('role');
      const backwards = await test.request({
        method: 'GET',
        url: '/v1/admin/users?from=2026-02-01&to=2026-01-01',
        key: adminKey.key,
      });
      expect(backwards.statusCode).toBe(400);
      expect(backwards.body).toContain('from: must not be after to');
    });

    it('reads one person (audited with them as the target); a user key is refused; an unknown id is 404', async () => {
      const response = await test.request({
        method: 'GET',
        url: `/v1/admin/users/${bob.id}?reason=support%20ticket`,
        key: viewerKey.key,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<PersonJson>()).toMatchObject({
        id: bob.id,
        displayName: 'Bob Stone',
        sessionCount: 1,
      });
      const records = (await test.api.repositories.audit.list({ action: 'admin.user.read' })).items;
      expect(records[0]).toMatchObject({ targetUserId: bob.id, reason: 'support ticket' });
      const refused = await test.request({
        method: 'GET',
        url: `/v1/admin/users/${bob.id}`,
        key: userKey.key,
      });
      expect(refused.statusCode).toBe(403);
      const missing = await test.request({
        method: 'GET',
        url: '/v1/admin/users/00000000-0000-7000-8000-000000000000',
        key: adminKey.key,
      });
      expect(missing.statusCode).toBe(404);
    });

    it('names every session’s owner in the admin list, and finds a person’s sessions by name', async () => {
      const all = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions?limit=100',
        key: adminKey.key,
      });
      const names = new Map(
        all.json<PageBody<SessionJson>>().items.map((session) => [session.ownerUserId, session.ownerName]),
      );
      expect(names.get(alice.id)).toBe('Alice Liddell');
      expect(names.get(bob.id)).toBe('Bob Stone');
      expect(names.get(carol.id)).toBe('Carol Jones');
      const byName = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions?user=alice',
        key: adminKey.key,
      });
      const owners = byName.json<PageBody<SessionJson>>().items.map((session) => session.ownerUserId);
      expect(owners).toEqual([alice.id, alice.id]);
      const nobody = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions?user=zelda',
        key: adminKey.key,
      });
      expect(nobody.json<PageBody<SessionJson>>().items).toEqual([]);
    });

    it('names the people behind every id an admin page shows, read in one batch per page', async () => {
      const { repositories } = test.api;
      const aliceSession = await createSession(repositories, alice, 'searched');
      await repositories.turnStore.append(alice.id, aliceSession.id, {
        role: 'user',
        contentParts: [{ type: 'text', text: 'the marmalade question' }],
      });
      const startedAt = new Date();
      await repositories.structuredOutputRuns.create({
        actorPrincipalId: alice.id,
        name: 'named run',
        schema: { type: 'object' },
        prompt: 'p',
        settings: {},
        targets: [],
        results: [],
        startedAt,
        finishedAt: startedAt,
      });
      const buildId = newId();
      await repositories.sandboxBuilds.start({
        id: buildId,
        tag: 'agentdesk-sandbox:test',
        force: false,
        trigger: 'session',
        actorPrincipalId: carol.id,
        actorApiKeyId: null,
        sessionId: aliceSession.id,
        sessionOwnerUserId: alice.id,
        startedAt,
      });
      // A read of bob's page by the viewer: an audit record with bob as its target user.
      await test.request({ method: 'GET', url: `/v1/admin/users/${bob.id}`, key: viewerKey.key });
      const viewerUser = viewerKey.stored.ownerUserId!;
      await repositories.users.renamed(await repositories.users.getById(viewerUser), 'Vera Viewer');

      type Row = Record<string, unknown>;
      const cases: ReadonlyArray<{
        readonly page: string;
        readonly url: string;
        readonly pick: (items: Row[]) => Row | undefined;
        readonly expected: Row;
      }> = [
        {
          page: 'audit (actor, target user)',
          url: '/v1/admin/audit?action=admin.user.read',
          pick: (items) => items.find((entry) => entry['targetUserId'] === bob.id),
          expected: { actorPrincipalId: viewerUser, actorName: 'Vera Viewer', targetUserName: 'Bob Stone' },
        },
        {
          page: 'keys (owner)',
          url: `/v1/admin/api-keys?ownerUserId=${alice.id}`,
          pick: (items) => items[0],
          expected: { id: userKey.stored.id, ownerUserId: alice.id, ownerName: 'Alice Liddell' },
        },
        {
          page: 'lab runs (run by)',
          url: '/v1/admin/structured-output/runs',
          pick: (items) => items.find((run) => run['name'] === 'named run'),
          expected: { actorPrincipalId: alice.id, actorName: 'Alice Liddell' },
        },
        {
          page: 'sandbox builds (triggered by, session owner)',
          url: '/v1/admin/sandbox/builds',
          pick: (items) => items.find((build) => build['id'] === buildId),
          expected: {
            actor: { principalId: carol.id, apiKeyId: null, name: 'Carol Jones' },
            session: { id: aliceSession.id, ownerUserId: alice.id, ownerName: 'Alice Liddell' },
          },
        },
        {
          page: 'search hits (session owner)',
          url: '/v1/admin/search/messages?q=marmalade',
          pick: (items) => items[0],
          expected: { ownerUserId: alice.id, ownerName: 'Alice Liddell' },
        },
      ];
      for (const { page, url: pageUrl, pick, expected } of cases) {
        const response = await test.request({ method: 'GET', url: pageUrl, key: adminKey.key });
        expect(response.statusCode, `${page}: ${response.body}`).toBe(200);
        expect(pick(response.json<PageBody<Row>>().items), page).toMatchObject(expected);
      }
      // Who is not a user keeps a null name: the lab run of a principal that names no user row.
      await repositories.structuredOutputRuns.create({
        actorPrincipalId: 'anonymous',
        name: 'anonymous run',
        schema: { type: 'object' },
        prompt: 'p',
        settings: {},
        targets: [],
        results: [],
        startedAt,
        finishedAt: startedAt,
      });
      const runs = await test.request({
        method: 'GET',
        url: '/v1/admin/structured-output/runs',
        key: adminKey.key,
      });
      expect(runs.json<PageBody<Row>>().items.find((run) => run['name'] === 'anonymous run')).toMatchObject({
        actorPrincipalId: 'anonymous',
        actorName: null,
      });
    });

    it('lists only one person’s keys with the owner filter, audited with them as the target', async () => {
      const mine = await test.request({
        method: 'GET',
        url: `/v1/admin/api-keys?ownerUserId=${alice.id}&reason=offboarding`,
        key: adminKey.key,
      });
      expect(mine.statusCode).toBe(200);
      expect(mine.json<PageBody<{ id: string }>>().items.map((key) => key.id)).toEqual([userKey.stored.id]);
      const nobody = await test.request({
        method: 'GET',
        url: `/v1/admin/api-keys?ownerUserId=${bob.id}`,
        key: adminKey.key,
      });
      expect(nobody.json<PageBody<unknown>>().items).toEqual([]);
      const records = (await test.api.repositories.audit.list({ action: 'admin.api-keys.list' })).items;
      expect(records.find((record) => record.targetUserId === alice.id)).toBeDefined();
      const badId = await test.request({
        method: 'GET',
        url: '/v1/admin/api-keys?ownerUserId=alice',
        key: adminKey.key,
      });
      expect(badId.statusCode).toBe(400);
      expect(badId.body).toContain('ownerUserId');
    });

    const sendAsPortal = (names: readonly string[], endUser = 'cust-7') => {
      const body = '{"label":"x"}';
      return rawHttp(
        url,
        rawRequest(
          'POST /v1/sessions HTTP/1.1',
          [
            ['Host', 'localhost'],
            ['Authorization', `Bearer ${portalKey.key}`],
            ['Content-Type', 'application/json'],
            ['Content-Length', String(Buffer.byteLength(body))],
            ['X-End-User-Id', endUser],
            ...names.map((name): [string, string] => ['X-End-User-Name', name]),
          ],
          body,
        ),
      );
    };

    it('stores the display name a portal sends for its end user, and follows a rename', async () => {
      const created = await sendAsPortal([encodeURIComponent('  José Ñandú ')]);
      expect(created.status).toBe(201);
      const stored = await test.api.repositories.users.findByExternalId('shop', 'cust-7');
      expect(stored?.displayName).toBe('José Ñandú');
      expect((await sendAsPortal(['Joe'])).status).toBe(201);
      expect((await test.api.repositories.users.getById(stored!.id)).displayName).toBe('Joe');
    });

    it('refuses an end-user name sent twice, empty, too long, with control characters or badly encoded', async () => {
      const cases: ReadonlyArray<readonly [readonly string[], string]> = [
        [['Ann', 'Bea'], 'header.x-end-user-name: send it once'],
        [['   '], 'header.x-end-user-name: must not be empty'],
        [['a'.repeat(121)], 'header.x-end-user-name: must be at most 120 characters'],
        [['Ann%0ABea'], 'header.x-end-user-name: must not contain control characters'],
        [['%E0%A4%A'], 'header.x-end-user-name: has a "%" that is no percent-encoding'],
      ];
      for (const [names, message] of cases) {
        const response = await sendAsPortal(names, 'cust-refused');
        expect(response.status, message).toBe(400);
        expect(response.json<{ error: { message: string } }>().error.message).toContain(message);
      }
      expect(await test.api.repositories.users.findByExternalId('shop', 'cust-refused')).toBeUndefined();
      const fromUserKey = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: userKey.key,
        headers: { 'x-end-user-name': 'Someone' },
        body: { label: 'x' },
      });
      expect(fromUserKey.statusCode).toBe(400);
      expect(fromUserKey.body).toContain('header.x-end-user-name: only a trusted portal');
    });

    it('takes the end-user name in the body too, with the header’s rules; both must agree', async () => {
      const { users } = test.api.repositories;
      const asPortal = (endUser: string, body: Record<string, unknown>, name?: string) =>
        test.request({
          method: 'POST',
          url: '/v1/sessions',
          key: portalKey.key,
          headers: { 'x-end-user-id': endUser, ...(name === undefined ? {} : { 'x-end-user-name': name }) },
          body,
        });
      const created = await asPortal('cust-body', { label: 'x', endUserName: '  Zoë Body ' });
      expect(created.statusCode, created.body).toBe(201);
      const stored = await users.findByExternalId('shop', 'cust-body');
      expect(stored?.displayName).toBe('Zoë Body');
      // The same name in both is one name.
      expect(
        (await asPortal('cust-body', { endUserName: 'Zoë B' }, encodeURIComponent('Zoë B'))).statusCode,
      ).toBe(201);
      expect((await users.getById(stored!.id)).displayName).toBe('Zoë B');
      const refusals: ReadonlyArray<readonly [Record<string, unknown>, string | undefined, string]> = [
        [{ endUserName: 'Ann' }, 'Bea', 'body.endUserName: differs from the x-end-user-name header'],
        [{ endUserName: '   ' }, undefined, 'body.endUserName: must not be empty'],
        [{ endUserName: 'a'.repeat(121) }, undefined, 'body.endUserName: must be at most 120 characters'],
        [{ endUserName: 'Ann\u0007' }, undefined, 'body.endUserName: must not contain control characters'],
        [{ endUserName: 42 }, undefined, 'body.endUserName: must be a string'],
      ];
      for (const [body, header, message] of refusals) {
        const response = await asPortal('cust-body-refused', body, header);
        expect(response.statusCode, message).toBe(400);
        expect(response.json<{ error: { message: string } }>().error.message).toContain(message);
      }
      expect(await users.findByExternalId('shop', 'cust-body-refused')).toBeUndefined();
      // A message names the end user too (a rename on the portal's side follows).
      const session = created.json<SessionJson>();
      const message = await test.request({
        method: 'POST',
        url: `/v1/sessions/${session.id}/messages`,
        key: portalKey.key,
        headers: { 'x-end-user-id': 'cust-body' },
        body: { content: 'hello', endUserName: 'Zoë Renamed' },
      });
      expect(message.statusCode, message.body).not.toBe(400);
      expect((await users.getById(stored!.id)).displayName).toBe('Zoë Renamed');
      // Only a trusted portal naming its end user sends a name; other routes have no such field.
      const fromUserKey = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: userKey.key,
        body: { label: 'x', endUserName: 'Someone' },
      });
      expect(fromUserKey.statusCode).toBe(400);
      expect(fromUserKey.body).toContain('body.endUserName: only a trusted portal');
      const rename = await test.request({
        method: 'PATCH',
        url: `/v1/sessions/${session.id}`,
        key: portalKey.key,
        headers: { 'x-end-user-id': 'cust-body' },
        body: { label: 'y', endUserName: 'Not Taken' },
      });
      expect(rename.statusCode).toBe(400);
      expect((await users.getById(stored!.id)).displayName).toBe('Zoë Renamed');
    });
  });
}
