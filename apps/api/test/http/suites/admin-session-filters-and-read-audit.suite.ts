import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@agentdesk/storage';
import { CROSS_USER_READ_DEDUP_WINDOW_MS } from '../../../src/shared/audit/cross-user-audit';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

interface PageBody<T> {
  items: T[];
  nextCursor: string | null;
}
interface SessionBody {
  id: string;
  portalId: string | null;
  model: string | null;
}
interface ErrorBody {
  error: { code: string; message: string };
}

/** `GET /v1/admin/sessions` filtered by portal and model, and de-duplicated audit records of repeated cross-user reads. */
export function describeAdminSessionFiltersAndReadAudit(engine: Engine): void {
  describe(`admin session filters and read-audit de-duplication (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let root: User;
    let qa: User;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;

    beforeEach(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      root = await createLocalUser(test.api.repositories, 'root');
      qa = await createLocalUser(test.api.repositories, 'qa');
      adminKey = await issueUserKey(test.api.repositories, root, 'admin');
      viewerKey = await issueUserKey(test.api.repositories, qa, 'viewer');
    });
    afterEach(async () => {
      await test.close();
    });

    it('filters by the owner’s portal and by model, exactly, walking pages with the cursor; each filter is audited', async () => {
      const { repositories } = test.api;
      const acme = await repositories.users.create({ portalId: 'acme', externalId: 'a1' });
      const acmeToo = await repositories.users.create({ portalId: 'acme', externalId: 'a2' });
      const globex = await repositories.users.create({ portalId: 'globex', externalId: 'g1' });
      const specs = [
        [acme, 'gpt-4o'],
        [globex, 'gpt-4o'],
        [acmeToo, 'claude-sonnet-4'],
        [alice, 'gpt-4o'],
        [acme, null],
        [acmeToo, 'gpt-4o'],
      ] as const;
      const made: SessionBody[] = [];
      for (const [owner, model] of specs) {
        test.database.clock.advance(1000);
        const session = await repositories.sessions.create({ ownerUserId: owner.id, model });
        made.push({ id: session.id, portalId: owner.portalId, model });
      }
      const newestFirst = [...made].reverse();
      const walk = async (query: string) => {
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const response = await test.request({
            method: 'GET',
            url: `/v1/admin/sessions?${query}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
            key: viewerKey.key,
          });
          expect(response.statusCode, response.body).toBe(200);
          const page = response.json<PageBody<SessionBody>>();
          ids.push(...page.items.map((item) => item.id));
          cursor = page.nextCursor;
        } while (cursor !== null);
        return ids;
      };
      const expected = (keep: (session: SessionBody) => boolean) =>
        newestFirst.filter(keep).map((session) => session.id);

      expect(await walk('portalId=acme')).toEqual(expected((session) => session.portalId === 'acme'));
      expect(await walk('model=gpt-4o')).toEqual(expected((session) => session.model === 'gpt-4o'));
      expect(await walk('portalId=acme&model=gpt-4o')).toEqual(
        expected((session) => session.portalId === 'acme' && session.model === 'gpt-4o'),
      );
      expect(await walk(`portalId=globex&userId=${globex.id}`)).toEqual([made[1]!.id]);
      expect(await walk('model=claude-sonnet-4&status=open')).toEqual([made[2]!.id]);
      // Exact match: no prefix, substring, wildcard or case folding.
      for (const query of ['portalId=acm', 'portalId=ACME', 'portalId=%25', 'model=gpt', 'model=gpt-4o%25'])
        expect(await walk(query), query).toEqual([]);

      const filters = (await repositories.audit.list({ action: 'admin.sessions.list' }, { limit: 100 })).items
        .map((record) => record.details?.['filter'])
        .reverse();
      expect(filters).toContainEqual({ portalId: 'acme', model: 'gpt-4o' });
      expect(filters).toContainEqual({ model: 'claude-sonnet-4', status: 'open' });
    });

    it('refuses empty, too long and multi-line portal and model filters with a 400 naming the field', async () => {
      const cases: Array<[string, string]> = [
        ['portalId=', 'portalId'],
        ['model=', 'model'],
        [`portalId=${'p'.repeat(201)}`, 'portalId'],
        [`model=${'m'.repeat(201)}`, 'model'],
        ['portalId=a%0Ab', 'portalId'],
        ['model=a%09b', 'model'],
        ['portal=acme', 'portal'],
      ];
      for (const [query, field] of cases) {
        const response = await test.request({
          method: 'GET',
          url: `/v1/admin/sessions?${query}`,
          key: adminKey.key,
        });
        expect(response.statusCode, query).toBe(400);
        expect(response.json<ErrorBody>().error.message, query).toContain(field);
      }
      expect((await test.api.repositories.audit.list({ action: 'admin.sessions.list' })).items).toEqual([]);
    });

    it('writes one record for repeated reads of a session by one principal with one action within the window', async () => {
      const { repositories } = test.api;
      const session = await createSession(repositories, alice, 'polled', 2);
      const other = await createSession(repositories, alice, 'other', 1);
      const read = async (url: string, key: IssuedKey) => {
        const response = await test.request({ method: 'GET', url, key: key.key });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      };
      const recordsOf = async (sessionId: string) =>
        (await repositories.audit.list({ sessionId }, { limit: 100 })).items
          .map((record) => [record.action, record.actorPrincipalId] as const)
          .reverse();
      const admin = root.id;
      const viewer = qa.id;

      // The console polls once a second while a turn runs.
      for (let poll = 0; poll < 5; poll += 1) {
        await read(`/v1/admin/sessions/${session.id}/messages`, adminKey);
        test.database.clock.advance(1000);
      }
      expect(await recordsOf(session.id)).toEqual([['admin.session.messages.read', admin]]);

      // Another action, another principal or another session each get their own record.
      await read(`/v1/admin/sessions/${session.id}`, adminKey);
      await read(`/v1/admin/sessions/${session.id}`, adminKey);
      await read(`/v1/admin/sessions/${session.id}/messages`, viewerKey);
      await read(`/v1/admin/sessions/${other.id}/messages`, adminKey);
      expect(await recordsOf(session.id)).toEqual([
        ['admin.session.messages.read', admin],
        ['admin.session.read', admin],
        ['admin.session.messages.read', viewer],
      ]);
      expect(await recordsOf(other.id)).toEqual([['admin.session.messages.read', admin]]);

      // A read for another stated reason is recorded with it; the same reason again is not.
      await read(`/v1/admin/sessions/${other.id}/messages?reason=ticket%2042`, adminKey);
      await read(`/v1/admin/sessions/${other.id}/messages?reason=ticket%2042`, adminKey);
      expect(
        (await repositories.audit.list({ sessionId: other.id })).items
          .map((record) => record.reason)
          .reverse(),
      ).toEqual([null, 'ticket 42']);

      // Just inside the window (measured from the first record): still one record.
      const first = (
        await repositories.audit.list({
          sessionId: session.id,
          action: 'admin.session.messages.read',
          actorPrincipalId: admin,
        })
      ).items;
      expect(first).toHaveLength(1);
      test.database.clock.set(first[0]!.at.getTime() + CROSS_USER_READ_DEDUP_WINDOW_MS);
      await read(`/v1/admin/sessions/${session.id}/messages`, adminKey);
      expect(
        (await recordsOf(session.id)).filter(
          ([action, actor]) => action === 'admin.session.messages.read' && actor === admin,
        ),
      ).toHaveLength(1);
      // After it: a second record.
      test.database.clock.advance(1);
      await read(`/v1/admin/sessions/${session.id}/messages`, adminKey);
      expect(
        (await recordsOf(session.id)).filter(
          ([action, actor]) => action === 'admin.session.messages.read' && actor === admin,
        ),
      ).toHaveLength(2);
    });

    it('never de-duplicates listings: the same listing twice writes two records', async () => {
      for (let index = 0; index < 2; index += 1) {
        const response = await test.request({
          method: 'GET',
          url: '/v1/admin/sessions?model=gpt-4o',
          key: adminKey.key,
        });
        expect(response.statusCode).toBe(200);
      }
      expect((await test.api.repositories.audit.list({ action: 'admin.sessions.list' })).items).toHaveLength(
        2,
      );
    });
  });
}
