import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageSearchPageJsonSchema } from '@agentdesk/api-contract';
import type { User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueStaffKeys, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

const searchPageSchema = messageSearchPageJsonSchema;

export function describeMessageSearch(engine: Engine): void {
  describe(`message search (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let bob: User;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;

    async function say(
      owner: User,
      text: string,
      as: { role?: 'user' | 'assistant'; model?: string } = {},
    ): Promise<{ sessionId: string; messageId: string }> {
      const session = await test.api.repositories.sessions.create({ ownerUserId: owner.id });
      const { message } = await test.api.repositories.turnStore.append(owner.id, session.id, {
        role: as.role ?? 'user',
        ...(as.model === undefined ? {} : { model: as.model }),
        contentParts: [{ type: 'text', text }],
      });
      return { sessionId: session.id, messageId: message.id };
    }

    beforeEach(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      bob = await createLocalUser(test.api.repositories, 'bob');
      ({ adminKey, viewerKey } = await issueStaffKeys(test.api.repositories));
    });
    afterEach(async () => {
      await test.close();
    });

    it('finds every user’s messages with all the words, links them to their session, and audits the search', async () => {
      const fromAlice = await say(alice, 'The wombat ate the invoice');
      const fromBob = await say(bob, `${'padding words '.repeat(30)}then a WOMBAT appeared with an invoice`);
      await say(bob, 'an invoice without the animal');
      const response = await test.request({
        method: 'GET',
        url: '/v1/admin/search/messages?q=wombat%20invoice&reason=ticket%2042',
        key: viewerKey.key,
      });
      expect(response.statusCode).toBe(200);
      const page = searchPageSchema.parse(response.json());
      expect(page.items.map((hit) => [hit.messageId, hit.sessionId, hit.ownerUserId])).toEqual([
        [fromBob.messageId, fromBob.sessionId, bob.id],
        [fromAlice.messageId, fromAlice.sessionId, alice.id],
      ]);
      // A long message is shown around the word found, not from its start.
      expect(page.items[0]?.snippet).toMatch(/^….*WOMBAT appeared/);
      expect(page.items[1]?.snippet).toBe('The wombat ate the invoice');

      const audit = await test.api.repositories.audit.list({ action: 'admin.messages.search' }, {});
      expect(audit.items).toHaveLength(1);
      expect(audit.items[0]).toMatchObject({
        actorPrincipalId: viewerKey.stored.ownerUserId,
        reason: 'ticket 42',
        targetUserId: null,
        details: { filter: { q: 'wombat invoice' }, count: 2 },
      });
    });

    it('pages newest first with the cursor it returns', async () => {
      const said: string[] = [];
      for (let index = 0; index < 5; index += 1) said.push((await say(alice, `ping ${index}`)).messageId);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `/v1/admin/search/messages?q=ping&limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const page = searchPageSchema.parse(
          (await test.request({ method: 'GET', url, key: adminKey.key })).json(),
        );
        seen.push(...page.items.map((hit) => hit.messageId));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual([...said].reverse());
    });

    it('answers a clear 400 naming q for a missing, empty, word-less or too long query, and for bad paging', async () => {
      const cases: Array<[string, string]> = [
        ['', 'q'],
        ['?q=', 'q'],
        ['?q=%20%20', 'q'],
        ['?q=%22%2A%28%29', 'q'],
        [`?q=${'a'.repeat(1001)}`, 'q'],
        ['?q=ok&role=robot', 'role'],
        ['?q=ok&createdFrom=yesterday', 'createdFrom'],
        ['?q=ok&createdFrom=2026-02-01T00:00:00Z&createdBefore=2026-01-01T00:00:00Z', 'createdFrom'],
        ['?q=ok&userId=', 'userId'],
        ['?q=line%0Abreak', 'q'],
        ['?q=ok&limit=0', 'limit'],
        ['?q=ok&cursor=not-a-cursor', 'cursor'],
        ['?q=ok&unknown=1', 'unknown'],
        ['?q=ok&q=twice', 'q'],
      ];
      for (const [query, field] of cases) {
        const response = await test.request({
          method: 'GET',
          url: `/v1/admin/search/messages${query}`,
          key: adminKey.key,
        });
        expect(response.statusCode, query).toBe(400);
        expect(response.body, query).toContain(field);
      }
      const written = await test.api.repositories.audit.list({ action: 'admin.messages.search' }, {});
      expect(written.items).toEqual([]);
    });

    it('finds words by their beginning and marks every place found in the snippet', async () => {
      const target = await say(alice, 'Routing is slow; the router reroutes each route');
      await say(alice, 'nothing to see');
      const response = await test.request({
        method: 'GET',
        url: '/v1/admin/search/messages?q=rout',
        key: adminKey.key,
      });
      const page = searchPageSchema.parse(response.json());
      expect(page.items.map((hit) => hit.messageId)).toEqual([target.messageId]);
      const [hit] = page.items;
      const marked = hit!.highlights.map(({ start, length }) => hit!.snippet.slice(start, start + length));
      // "reroutes" holds "rout" but does not begin with it: not a match, not marked.
      expect(marked).toEqual(['Rout', 'rout', 'rout']);
      expect(page.words).toEqual(['rout']);
      expect(page.ignoredWords).toEqual([]);
    });

    it('narrows by person, role, model and dates, and audits the person searched', async () => {
      const aliceAsks = await say(alice, 'deploy the gateway');
      const aliceModel = await say(alice, 'gateway deployed', { role: 'assistant', model: 'gpt-5' });
      const bobModel = await say(bob, 'gateway is down', { role: 'assistant', model: 'claude-sonnet' });
      const search = async (filters: string) =>
        searchPageSchema
          .parse(
            (
              await test.request({
                method: 'GET',
                url: `/v1/admin/search/messages?q=gateway${filters}`,
                key: viewerKey.key,
              })
            ).json(),
          )
          .items.map((hit) => hit.messageId);
      expect(await search('')).toEqual([bobModel.messageId, aliceModel.messageId, aliceAsks.messageId]);
      expect(await search(`&userId=${alice.id}`)).toEqual([aliceModel.messageId, aliceAsks.messageId]);
      expect(await search('&role=user')).toEqual([aliceAsks.messageId]);
      expect(await search('&model=claude-sonnet')).toEqual([bobModel.messageId]);
      expect(await search(`&userId=${bob.id}&role=user`)).toEqual([]);
      const now = new Date(test.database.clock.now());
      const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
      const hourAhead = new Date(now.getTime() + 3_600_000).toISOString();
      expect(await search(`&createdFrom=${hourAgo}&createdBefore=${hourAhead}`)).toHaveLength(3);
      expect(await search(`&createdFrom=${hourAhead}`)).toEqual([]);
      const audit = await test.api.repositories.audit.list({ action: 'admin.messages.search' }, {});
      expect(audit.items.find((entry) => entry.targetUserId === alice.id)).toMatchObject({
        details: { filter: { q: 'gateway', userId: alice.id }, count: 2 },
      });
    });

    it('takes a query of up to 1,000 characters, searching its first 16 distinct words and naming the rest', async () => {
      const words = Array.from({ length: 30 }, (_, index) => `term${index}`);
      const target = await say(alice, words.slice(0, 16).join(' '));
      const q = `${words.join(' ')} `.repeat(5).slice(0, 1000);
      expect(q.length).toBe(1000);
      const response = await test.request({
        method: 'GET',
        url: `/v1/admin/search/messages?q=${encodeURIComponent(q)}`,
        key: adminKey.key,
      });
      expect(response.statusCode).toBe(200);
      const page = searchPageSchema.parse(response.json());
      expect(page.items.map((hit) => hit.messageId)).toEqual([target.messageId]);
      expect(page.words).toEqual(words.slice(0, 16));
      expect(page.ignoredWords).toEqual(words.slice(16));
    });

    it('treats operators and quotes in the query as plain words', async () => {
      const target = await say(alice, 'alpha OR beta NEAR gamma');
      for (const q of ['alpha OR', '"alpha" beta*', 'NEAR(alpha', "alpha'); --", 'alpha & !beta | gamma:*']) {
        const response = await test.request({
          method: 'GET',
          url: `/v1/admin/search/messages?q=${encodeURIComponent(q)}`,
          key: adminKey.key,
        });
        expect(response.statusCode, q).toBe(200);
        expect(
          searchPageSchema.parse(response.json()).items.map((hit) => hit.messageId),
          q,
        ).toEqual([target.messageId]);
      }
    });
  });
}
