import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issuePortalKey,
  issueUserKey,
  type IssuedKey,
  issueStaffKeys,
} from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

interface SessionBody {
  id: string;
  ownerUserId: string;
  portalId: string | null;
  label: string;
  status: string;
  model: string | null;
  systemPrompt: string | null;
  metadata: Record<string, unknown>;
  messageCount: number;
  createdAt: string;
}
interface PageBody<T> {
  items: T[];
  nextCursor: string | null;
}

export function describeSessionsAndAdmin(engine: Engine): void {
  describe(`sessions and admin routes (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let aliceKey: IssuedKey;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;

    beforeEach(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
      ({ adminKey, viewerKey } = await issueStaffKeys(test.api.repositories));
    });
    afterEach(async () => {
      await test.close();
    });

    it('creates, reads, renames, closes and deletes the caller’s own session', async () => {
      const created = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: aliceKey.key,
        body: {
          label: 'Invoices',
          model: 'gpt-4o-mini',
          systemPrompt: 'You extract invoices.\nBe terse.',
          metadata: { ticket: 42, tags: ['a'] },
        },
      });
      expect(created.statusCode).toBe(201);
      const session = created.json<SessionBody>();
      expect(session).toMatchObject({
        ownerUserId: alice.id,
        portalId: null,
        label: 'Invoices',
        status: 'open',
        model: 'gpt-4o-mini',
        systemPrompt: 'You extract invoices.\nBe terse.',
        metadata: { ticket: 42, tags: ['a'] },
        messageCount: 0,
      });

      const read = await test.request({
        method: 'GET',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
      });
      expect(read.json()).toEqual(session);

      const renamed = await test.request({
        method: 'PATCH',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
        body: { label: 'Receipts' },
      });
      expect(renamed.json<SessionBody>()).toMatchObject({ label: 'Receipts', model: 'gpt-4o-mini' });
      const emptyPatch = await test.request({
        method: 'PATCH',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
        body: {},
      });
      expect(emptyPatch.statusCode).toBe(400);

      for (let attempt = 0; attempt < 2; attempt += 1) {
        const closed = await test.request({
          method: 'POST',
          url: `/v1/sessions/${session.id}/close`,
          key: aliceKey.key,
        });
        expect(closed.statusCode).toBe(200);
        expect(closed.json<SessionBody>().status).toBe('closed');
      }

      const deleted = await test.request({
        method: 'DELETE',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
      });
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expect(
        (await test.request({ method: 'GET', url: `/v1/sessions/${session.id}`, key: aliceKey.key }))
          .statusCode,
      ).toBe(404);
      expect(
        (await test.request({ method: 'DELETE', url: `/v1/sessions/${session.id}`, key: aliceKey.key }))
          .statusCode,
      ).toBe(404);
    });

    it('lists own sessions newest first with cursor pagination and filters', async () => {
      const { clock, repositories } = { clock: test.database.clock, repositories: test.api.repositories };
      const bob = await createLocalUser(repositories, 'bob');
      await createSession(repositories, bob, 'bob weekly report');
      const labels = ['weekly report', 'invoice 1', 'Invoice 2', 'weekly sync', '100%_done'];
      const ids: string[] = [];
      for (const label of labels) {
        clock.advance(60_000);
        ids.push((await createSession(repositories, alice, label)).id);
      }
      await repositories.sessions.close(alice.id, ids[1]!);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `/v1/sessions?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`;
        const page = (await test.request({ method: 'GET', url, key: aliceKey.key })).json<
          PageBody<SessionBody>
        >();
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual([...ids].reverse());

      const list = async (query: string) =>
        (await test.request({ method: 'GET', url: `/v1/sessions?${query}`, key: aliceKey.key }))
          .json<PageBody<SessionBody>>()
          .items.map((item) => item.label);
      expect(await list('status=closed')).toEqual(['invoice 1']);
      expect(await list('label=INVOICE')).toEqual(['Invoice 2', 'invoice 1']);
      expect(await list('label=weekly')).toEqual(['weekly sync', 'weekly report']);
      expect(await list(`label=${encodeURIComponent('%_')}`)).toEqual(['100%_done']);
      const start = new Date(Date.UTC(2026, 0, 1) + 2 * 60_000).toISOString();
      const end = new Date(Date.UTC(2026, 0, 1) + 4 * 60_000).toISOString();
      expect(await list(`createdFrom=${start}&createdBefore=${end}`)).toEqual(['Invoice 2', 'invoice 1']);

      for (const query of [
        'status=archived',
        'createdFrom=yesterday',
        'cursor=%24%24',
        'cursor=bm90LWEtY3Vyc29y',
      ]) {
        const response = await test.request({
          method: 'GET',
          url: `/v1/sessions?${query}`,
          key: aliceKey.key,
        });
        expect(response.statusCode, query).toBe(400);
      }
    });

    it('lists a session’s messages in order, page by page', async () => {
      const session = await createSession(test.api.repositories, alice, 'chat', 5);
      const first = (
        await test.request({
          method: 'GET',
          url: `/v1/sessions/${session.id}/messages?limit=3`,
          key: aliceKey.key,
        })
      ).json<PageBody<{ seq: number; role: string; contentParts: unknown[] }>>();
      expect(first.items.map((item) => item.seq)).toEqual([1, 2, 3]);
      expect(first.items[0]).toMatchObject({
        role: 'user',
        contentParts: [{ type: 'text', text: 'message 1' }],
      });
      const second = (
        await test.request({
          method: 'GET',
          url: `/v1/sessions/${session.id}/messages?limit=3&cursor=${first.nextCursor}`,
          key: aliceKey.key,
        })
      ).json<PageBody<{ seq: number }>>();
      expect(second.items.map((item) => item.seq)).toEqual([4, 5]);
      expect(second.nextCursor).toBeNull();
    });

    it('a trusted portal acts for the end user it names, in its own namespace; a user key may only name itself', async () => {
      const portal = await issuePortalKey(test.api.repositories, 'shop', true);
      const asCarol = { authorization: `Bearer ${portal.key}`, 'x-end-user-id': 'carol' };
      expect((await test.request({ method: 'GET', url: '/v1/sessions', headers: asCarol })).json()).toEqual({
        items: [],
        nextCursor: null,
      });
      expect(await test.api.repositories.users.findByExternalId('shop', 'carol')).toBeUndefined();

      const created = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        headers: asCarol,
        body: { label: 'carol chat' },
      });
      expect(created.statusCode).toBe(201);
      const carol = await test.api.repositories.users.findByExternalId('shop', 'carol');
      expect(created.json<SessionBody>()).toMatchObject({ ownerUserId: carol?.id, portalId: 'shop' });
      const listed = await test.request({ method: 'GET', url: '/v1/sessions', headers: asCarol });
      expect(listed.json<PageBody<SessionBody>>().items.map((item) => item.label)).toEqual(['carol chat']);

      const invalidName = await test.request({
        method: 'GET',
        url: '/v1/sessions',
        headers: { ...asCarol, 'x-end-user-id': 'x'.repeat(300) },
      });
      expect(invalidName.statusCode).toBe(400);
      const withoutName = await test.request({ method: 'GET', url: '/v1/sessions', key: portal.key });
      expect(withoutName.statusCode).toBe(403);
      expect(withoutName.json<{ error: { code: string } }>().error.code).toBe('END_USER_REQUIRED');

      expect(
        (
          await test.request({
            method: 'GET',
            url: '/v1/sessions',
            key: aliceKey.key,
            headers: { 'x-end-user-id': alice.id },
          })
        ).statusCode,
      ).toBe(200);
      const impersonation = await test.request({
        method: 'GET',
        url: '/v1/sessions',
        key: aliceKey.key,
        headers: { 'x-end-user-id': carol?.id ?? '' },
      });
      expect(impersonation.statusCode).toBe(403);
    });

    it('admins and viewers read any session with its messages; each cross-user read is audited with its reason', async () => {
      const session = await createSession(test.api.repositories, alice, 'support case', 3);
      const read = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions/${session.id}?limit=2&reason=${encodeURIComponent('ticket #7')}`,
        key: viewerKey.key,
      });
      expect(read.statusCode).toBe(200);
      const body = read.json<{ session: SessionBody; messages: PageBody<{ seq: number }> }>();
      expect(body.session).toMatchObject({ id: session.id, label: 'support case', ownerUserId: alice.id });
      expect(body.messages.items.map((item) => item.seq)).toEqual([1, 2]);

      const more = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions/${session.id}/messages?cursor=${body.messages.nextCursor}`,
        key: adminKey.key,
        headers: { 'x-audit-reason': 'escalation' },
      });
      expect(more.json<PageBody<{ seq: number }>>().items.map((item) => item.seq)).toEqual([3]);

      const audit = await test.request({
        method: 'GET',
        url: `/v1/admin/audit?sessionId=${session.id}`,
        key: adminKey.key,
      });
      const entries = audit.json<
        PageBody<{
          action: string;
          actorPrincipalId: string;
          targetUserId: string;
          reason: string;
          requestId: string;
        }>
      >().items;
      expect(
        entries.map((entry) => [
          entry.action,
          entry.actorPrincipalId,
          entry.targetUserId,
          entry.reason,
          entry.requestId,
        ]),
      ).toEqual([
        [
          'admin.session.messages.read',
          adminKey.stored.ownerUserId,
          alice.id,
          'escalation',
          more.headers['x-request-id'],
        ],
        [
          'admin.session.read',
          viewerKey.stored.ownerUserId,
          alice.id,
          'ticket #7',
          read.headers['x-request-id'],
        ],
      ]);
      const byAction = await test.request({
        method: 'GET',
        url: '/v1/admin/audit?action=admin.session.read',
        key: adminKey.key,
      });
      expect(byAction.json<PageBody<unknown>>().items).toHaveLength(1);

      // Failed reads leave no record; a bad reason is refused before anything is read.
      expect(
        (
          await test.request({
            method: 'GET',
            url: `/v1/admin/sessions/${session.id}?cursor=bm9wZQ`,
            key: adminKey.key,
          })
        ).statusCode,
      ).toBe(400);
      const badReason = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions/${session.id}`,
        key: adminKey.key,
        headers: { 'x-audit-reason': 'a\tb' },
      });
      expect(badReason.statusCode).toBe(400);
      expect((await test.api.repositories.audit.list({ sessionId: session.id })).items).toHaveLength(2);
    });

    it('admins and viewers list every user’s sessions with filters, and users; every cross-user listing is audited once, with its filter and count', async () => {
      const bob = await createLocalUser(test.api.repositories, 'bob');
      await createSession(test.api.repositories, alice, 'alpha');
      test.database.clock.advance(1000);
      const beta = await createSession(test.api.repositories, bob, 'beta');
      await test.api.repositories.sessions.close(bob.id, beta.id);

      const listings: Array<{ requestId: string; query: string; count: number }> = [];
      const labels = async (query: string) => {
        const response = await test.request({
          method: 'GET',
          url: `/v1/admin/sessions?${query}`,
          key: viewerKey.key,
          headers: { 'x-audit-reason': 'weekly QA', 'x-request-id': 'client-chosen' },
        });
        const items = response.json<PageBody<SessionBody>>().items;
        listings.push({ requestId: String(response.headers['x-request-id']), query, count: items.length });
        return items.map((item) => item.label);
      };
      expect(await labels('')).toEqual(['beta', 'alpha']);
      expect(await labels(`userId=${alice.id}`)).toEqual(['alpha']);
      expect(await labels('status=closed&limit=5')).toEqual(['beta']);
      expect(await labels('label=ALP&createdFrom=2000-01-01T00:00:00Z')).toEqual(['alpha']);
      expect(await labels('label=nothing-matches')).toEqual([]);

      const records = (await test.api.repositories.audit.list({ action: 'admin.sessions.list' })).items;
      expect(records.map((record) => record.requestId).reverse()).toEqual(
        listings.map((listing) => listing.requestId),
      );
      expect(
        records.map((record) => ({
          actor: record.actorPrincipalId,
          key: record.actorApiKeyId,
          target: record.targetUserId,
          reason: record.reason,
          client: record.clientRequestId,
          details: record.details,
        })),
      ).toEqual(
        [
          { filter: {}, count: 2 },
          { filter: { userId: alice.id }, count: 1 },
          { filter: { status: 'closed' }, count: 1 },
          { filter: { label: 'ALP', createdFrom: '2000-01-01T00:00:00.000Z' }, count: 1 },
          { filter: { label: 'nothing-matches' }, count: 0 },
        ]
          .map((details, index) => ({
            actor: viewerKey.stored.ownerUserId,
            key: viewerKey.stored.id,
            target: index === 1 ? alice.id : null,
            reason: 'weekly QA',
            client: 'client-chosen',
            details,
          }))
          .reverse(),
      );
      // The server's own id, never the client's, is the audited request id.
      expect(records.every((record) => record.requestId !== 'client-chosen')).toBe(true);

      // Filtered to the caller's own user, a listing shows no one else's data: not audited.
      const own = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions?userId=${adminKey.stored.ownerUserId}`,
        key: adminKey.key,
      });
      expect(own.statusCode).toBe(200);
      // A refused listing leaves no record.
      const refused = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions?status=x',
        key: viewerKey.key,
      });
      expect(refused.statusCode).toBe(400);
      expect((await test.api.repositories.audit.list({ action: 'admin.sessions.list' })).items).toHaveLength(
        5,
      );

      const users = await test.request({
        method: 'GET',
        url: '/v1/admin/users?search=bo&reason=find%20bob',
        key: viewerKey.key,
      });
      expect(users.json<PageBody<{ externalId: string }>>().items.map((item) => item.externalId)).toEqual([
        'bob',
      ]);
      const userListings = (await test.api.repositories.audit.list({ action: 'admin.users.list' })).items;
      expect(userListings).toMatchObject([
        {
          actorPrincipalId: viewerKey.stored.ownerUserId,
          targetUserId: null,
          reason: 'find bob',
          clientRequestId: null,
          requestId: users.headers['x-request-id'],
          details: { filter: { search: 'bo' }, count: 1 },
        },
      ]);

      // Reading the audit log is audited too, and the API shows both request ids.
      const log = await test.request({
        method: 'GET',
        url: '/v1/admin/audit?action=admin.users.list',
        key: adminKey.key,
      });
      expect(log.json<PageBody<Record<string, unknown>>>().items).toMatchObject([
        { clientRequestId: null, details: { filter: { search: 'bo' }, count: 1 } },
      ]);
      expect((await test.api.repositories.audit.list({ action: 'admin.audit.list' })).items).toMatchObject([
        {
          details: { filter: { action: 'admin.users.list' }, count: 1 },
          requestId: log.headers['x-request-id'],
        },
      ]);
    });

    it('admins create user and portal keys (shown once), list them without secrets, and revoke them', async () => {
      const byExternalId = await test.request({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: adminKey.key,
        body: { role: 'viewer', label: 'QA laptop', externalId: 'quinn', displayName: 'Quinn' },
      });
      expect(byExternalId.statusCode).toBe(201);
      const created = byExternalId.json<{ key: string; apiKey: Record<string, unknown> }>();
      expect(created.apiKey).toMatchObject({ role: 'viewer', label: 'QA laptop', revokedAt: null });
      expect(created.key.startsWith(`${String(created.apiKey['prefix'])}_`)).toBe(true);
      expect(created.apiKey).not.toHaveProperty('secretHash');
      expect(
        (await test.request({ method: 'GET', url: '/v1/admin/users', key: created.key })).statusCode,
      ).toBe(200);

      const forAlice = await test.request({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: adminKey.key,
        body: { role: 'user', label: 'second', userId: alice.id },
      });
      expect(forAlice.json<{ apiKey: { ownerUserId: string } }>().apiKey.ownerUserId).toBe(alice.id);

      const portal = await test.request({
        method: 'POST',
        url: '/v1/admin/api-keys',
        key: adminKey.key,
        body: { role: 'portal', label: 'shop', portalId: 'shop', trustClientUserId: true },
      });
      const portalKey = portal.json<{
        key: string;
        apiKey: { trustClientUserId: boolean; ownerUserId: null };
      }>();
      expect(portalKey.apiKey).toMatchObject({ trustClientUserId: true, ownerUserId: null });
      expect(
        (
          await test.request({
            method: 'GET',
            url: '/v1/sessions',
            key: portalKey.key,
            headers: { 'x-end-user-id': 'dan' },
          })
        ).statusCode,
      ).toBe(200);

      for (const body of [
        { role: 'user', label: 'both', userId: alice.id, externalId: 'x' },
        { role: 'user', label: 'neither' },
        { role: 'superuser', label: 'x', externalId: 'x' },
        { role: 'portal', label: 'x', portalId: 'p', userId: alice.id },
        { role: 'user', label: 'x', externalId: 'x', trustClientUserId: true },
      ]) {
        expect(
          (await test.request({ method: 'POST', url: '/v1/admin/api-keys', key: adminKey.key, body }))
            .statusCode,
          JSON.stringify(body),
        ).toBe(400);
      }
      expect(
        (
          await test.request({
            method: 'POST',
            url: '/v1/admin/api-keys',
            key: adminKey.key,
            body: { role: 'user', label: 'x', userId: '00000000-0000-7000-8000-000000000000' },
          })
        ).statusCode,
      ).toBe(404);

      const list = await test.request({
        method: 'GET',
        url: '/v1/admin/api-keys?limit=100',
        key: adminKey.key,
      });
      expect(list.body).not.toContain(created.key);
      expect(list.body).not.toContain('secretHash');
      expect(list.json<PageBody<unknown>>().items.length).toBeGreaterThanOrEqual(6);

      const revoked = await test.request({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${String(created.apiKey['id'])}`,
        key: adminKey.key,
      });
      expect(revoked.json<{ revokedAt: string | null }>().revokedAt).not.toBeNull();
      expect(
        (await test.request({ method: 'GET', url: '/v1/admin/users', key: created.key })).statusCode,
      ).toBe(401);
    });
    it('looks users up by id (up to 100, comma-separated), audited with the ids asked for', async () => {
      const bob = await createLocalUser(test.api.repositories, 'bob');
      const carol = await createLocalUser(test.api.repositories, 'carol');
      await createLocalUser(test.api.repositories, 'dave');
      const unknown = '00000000-0000-7000-8000-000000000000';
      const lookup = await test.request({
        method: 'GET',
        url: `/v1/admin/users?ids=${carol.id},${bob.id},${unknown},${bob.id}`,
        key: viewerKey.key,
      });
      expect(lookup.statusCode).toBe(200);
      const found = lookup.json<PageBody<{ id: string; externalId: string }>>();
      expect(found.items.map((user) => user.externalId)).toEqual(['carol', 'bob']);
      expect(found.nextCursor).toBeNull();
      expect((await test.api.repositories.audit.list({ action: 'admin.users.list' })).items).toMatchObject([
        { details: { filter: { ids: [carol.id, bob.id, unknown] }, count: 2 } },
      ]);
      // Combined with the other filters, all must hold.
      const narrowed = await test.request({
        method: 'GET',
        url: `/v1/admin/users?ids=${carol.id},${bob.id}&search=car`,
        key: viewerKey.key,
      });
      expect(narrowed.json<PageBody<{ externalId: string }>>().items.map((user) => user.externalId)).toEqual([
        'carol',
      ]);
      // Malformed, empty or too many ids: a 400 that says which.
      const tooMany = Array.from({ length: 101 }, () => unknown).map((id, index) =>
        id.replace(/0{3}$/, String(index).padStart(3, '0')),
      );
      for (const [ids, problem] of [
        ['not-an-id', 'must be an id'],
        ['', 'must be an id'],
        [`${bob.id},`, 'must be an id'],
        [tooMany.join(','), 'at most 100 ids'],
      ] as const) {
        const refused = await test.request({
          method: 'GET',
          url: `/v1/admin/users?ids=${encodeURIComponent(ids)}`,
          key: viewerKey.key,
        });
        expect(refused.statusCode, ids).toBe(400);
        expect(refused.body, ids).toContain(problem);
        expect(refused.body, ids).toContain('ids');
      }
      // A user key may not look anyone up.
      expect(
        (await test.request({ method: 'GET', url: `/v1/admin/users?ids=${bob.id}`, key: aliceKey.key }))
          .statusCode,
      ).toBe(403);
    });
  });
}
