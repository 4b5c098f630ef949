import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageSearchHitJsonSchema, pageJsonSchema } from '@agentdesk/api-contract';
import type { User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueStaffKeys, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

const searchPageSchema = pageJsonSchema(messageSearchHitJsonSchema);

export function describeMessageSearch(engine: Engine): void {
  describe(`message search (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let bob: User;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;

    async function say(owner: User, text: string): Promise<{ sessionId: string; messageId: string }> {
      const session = await test.api.repositories.sessions.create({ ownerUserId: owner.id });
      const { message } = await test.api.repositories.turnStore.append(owner.id, session.id, {
        role: 'user',
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
        [`?q=${'a'.repeat(201)}`, 'q'],
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
