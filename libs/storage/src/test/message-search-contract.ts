import fc from 'fast-check';
import type { StoredContentPart } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_TERMS,
  ignoredSearchTermsOf,
  patternMatchesWord,
  searchPatternsOf,
  searchTermsOf,
} from '../repositories/transcript/message-search';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

const text = (value: string): StoredContentPart => ({ type: 'text', text: value });

async function sessionOf(
  database: TestDatabase,
  name: string,
): Promise<{ ownerUserId: string; sessionId: string }> {
  const user = await createUser(database, name);
  const session = await database.repositories.sessions.create({ ownerUserId: user.id });
  return { ownerUserId: user.id, sessionId: session.id };
}

/** Full-text search over every user's message text, from each engine's own index. */
export function describeMessageSearchContract(factory: TestDatabaseFactory): void {
  describe('message search', () => {
    const current = useTestDatabase(factory);

    it('finds every user’s messages containing all the words, newest first, and nothing else', async () => {
      const database = current();
      const { turnStore, transcript } = database.repositories;
      const alice = await sessionOf(database, 'alice');
      const bob = await sessionOf(database, 'bob');
      const first = await turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'user',
        contentParts: [text('The Purple giraffe eats leaves')],
      });
      database.clock.advance(1000);
      const second = await turnStore.append(bob.ownerUserId, bob.sessionId, {
        role: 'assistant',
        contentParts: [text('A giraffe, purple? '), text('Never seen one.')],
      });
      database.clock.advance(1000);
      await turnStore.append(bob.ownerUserId, bob.sessionId, {
        role: 'assistant',
        contentParts: [text('only a giraffe here')],
        // Tool call arguments are not message text: they are not indexed.
        toolCalls: [{ id: 'call-1', name: 'paint', arguments: '{"color":"purple"}' }],
      });
      const page = await transcript.searchMessages('purple GIRAFFE');
      expect(page.items.map((hit) => [hit.message.id, hit.ownerUserId])).toEqual([
        [second.message.id, bob.ownerUserId],
        [first.message.id, alice.ownerUserId],
      ]);
      expect(page.nextCursor).toBeNull();
      expect(page.items[1]?.message.sessionId).toBe(alice.sessionId);
      expect((await transcript.searchMessages('zebra')).items).toEqual([]);
      // Part types are not indexed either: "text" is no word of any message here.
      expect((await transcript.searchMessages('text')).items).toEqual([]);
    });

    it('walks every match page by page with keyset cursors', async () => {
      const database = current();
      const { turnStore, transcript } = database.repositories;
      const alice = await sessionOf(database, 'alice');
      const appended: string[] = [];
      for (let index = 0; index < 7; index += 1) {
        database.clock.advance(10);
        const { message } = await turnStore.append(alice.ownerUserId, alice.sessionId, {
          role: 'user',
          contentParts: [text(`needle number ${index}`)],
        });
        appended.push(message.id);
      }
      await turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'user',
        contentParts: [text('haystack')],
      });
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof transcript.searchMessages>> = await transcript.searchMessages(
          'needle',
          {
            limit: 3,
            cursor,
          },
        );
        expect(page.items.length).toBeLessThanOrEqual(3);
        walked.push(...page.items.map((hit) => hit.message.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(walked).toEqual([...appended].reverse());
    });

    it('follows a pending message to its final text, and forgets deleted sessions', async () => {
      const database = current();
      const { turnStore, transcript, sessions } = database.repositories;
      const alice = await sessionOf(database, 'alice');
      const { message } = await turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'assistant',
        contentParts: [text('thinking placeholder')],
        status: 'pending',
      });
      expect((await transcript.searchMessages('placeholder')).items).toHaveLength(1);
      await turnStore.recordAnswer(alice.ownerUserId, alice.sessionId, message.id, {
        contentParts: [text('the final answer is quokka')],
      });
      expect((await transcript.searchMessages('placeholder')).items).toEqual([]);
      expect((await transcript.searchMessages('quokka')).items.map((hit) => hit.message.id)).toEqual([
        message.id,
      ]);
      await sessions.delete(alice.ownerUserId, alice.sessionId);
      expect((await transcript.searchMessages('quokka')).items).toEqual([]);
    });

    it('treats any query text as words, never as index syntax', async () => {
      const database = current();
      const alice = await sessionOf(database, 'alice');
      await database.repositories.turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'user',
        contentParts: [text('near or not: quotes "and" stars*')],
      });
      for (const query of ['"', 'NEAR(', 'not OR', 'stars*', "'); drop table messages; --", '&|!:*', ''])
        await database.repositories.transcript.searchMessages(query);
      expect(
        (await database.repositories.transcript.searchMessages('"quotes" AND-stars*')).items,
      ).toHaveLength(1);
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 40 }), async (query) => {
          const page = await database.repositories.transcript.searchMessages(query);
          // Whatever it finds holds every searched word (the last, when long enough, as a word's beginning).
          const patterns = searchPatternsOf(query);
          for (const hit of page.items) {
            const body =
              hit.message.contentParts
                .map((part) => (part.type === 'text' ? part.text : ''))
                .join(' ')
                .toLowerCase()
                .match(/[\p{L}\p{N}]+/gu) ?? [];
            for (const pattern of patterns)
              expect(body.some((found) => patternMatchesWord(pattern, found))).toBe(true);
          }
        }),
        { numRuns: 40 },
      );
    });

    it('finds the last word by its beginning from three letters on; the other words, and shorter ones, whole', async () => {
      const database = current();
      const { turnStore, transcript } = database.repositories;
      const alice = await sessionOf(database, 'alice');
      const route = await turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'user',
        contentParts: [text('The route to the Router is slow')],
      });
      database.clock.advance(10);
      const go = await turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'user',
        contentParts: [text('go ro outer')],
      });
      const ids = async (query: string) =>
        (await transcript.searchMessages(query)).items.map((hit) => hit.message.id);
      expect(await ids('rout')).toEqual([route.message.id]);
      expect(await ids('ROUTE slo')).toEqual([route.message.id]);
      // A prefix is a word's beginning, never its middle: "outer" is in neither "route" nor "router".
      expect(await ids('outer')).toEqual([go.message.id]);
      expect(await ids('ro')).toEqual([go.message.id]);
      expect(await ids('slow rou')).toEqual([route.message.id]);
      // Only the last word is a prefix: "rou" before "slow" is a whole word, and no message has it.
      expect(await ids('rou slow')).toEqual([]);
      expect(await ids('routes')).toEqual([]);
      expect(searchPatternsOf('route to')).toEqual([
        { word: 'route', prefix: false },
        { word: 'to', prefix: false },
      ]);
    });

    it('narrows by the session owner, the role, the model and a creation range', async () => {
      const database = current();
      const { turnStore, transcript } = database.repositories;
      const alice = await sessionOf(database, 'alice');
      const bob = await sessionOf(database, 'bob');
      const start = database.clock.now();
      const aliceAsks = await turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'user',
        contentParts: [text('deploy the gateway')],
      });
      database.clock.advance(60_000);
      const aliceAnswer = await turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'assistant',
        model: 'gpt-5',
        contentParts: [text('gateway deployed')],
      });
      database.clock.advance(60_000);
      const bobAnswer = await turnStore.append(bob.ownerUserId, bob.sessionId, {
        role: 'assistant',
        model: 'claude-sonnet',
        contentParts: [text('gateway down')],
      });
      const ids = async (filters: Parameters<typeof transcript.searchMessages>[2]) =>
        (await transcript.searchMessages('gate', {}, filters)).items.map((hit) => hit.message.id);
      expect(await ids({})).toEqual([bobAnswer.message.id, aliceAnswer.message.id, aliceAsks.message.id]);
      expect(await ids({ ownerUserId: alice.ownerUserId })).toEqual([
        aliceAnswer.message.id,
        aliceAsks.message.id,
      ]);
      expect(await ids({ role: 'user' })).toEqual([aliceAsks.message.id]);
      expect(await ids({ model: 'claude-sonnet' })).toEqual([bobAnswer.message.id]);
      expect(await ids({ role: 'assistant', ownerUserId: bob.ownerUserId, model: 'gpt-5' })).toEqual([]);
      // From inclusive, before exclusive.
      expect(
        await ids({ createdFrom: new Date(start + 60_000), createdBefore: new Date(start + 120_000) }),
      ).toEqual([aliceAnswer.message.id]);
      expect(await ids({ createdFrom: new Date(start + 120_001) })).toEqual([]);
      // Filters and paging together: one per page, the same three in the same order.
      const first = await transcript.searchMessages('gate', { limit: 1 }, { ownerUserId: alice.ownerUserId });
      const second = await transcript.searchMessages(
        'gate',
        { limit: 1, cursor: first.nextCursor },
        { ownerUserId: alice.ownerUserId },
      );
      expect([...first.items, ...second.items].map((hit) => hit.message.id)).toEqual([
        aliceAnswer.message.id,
        aliceAsks.message.id,
      ]);
    });

    it('searches a long query by its first distinct words and names the ones left out', async () => {
      const database = current();
      const alice = await sessionOf(database, 'alice');
      const words = Array.from({ length: 40 }, (_, index) => `word${index}`);
      const stored = await database.repositories.turnStore.append(alice.ownerUserId, alice.sessionId, {
        role: 'user',
        contentParts: [text(words.slice(0, MAX_SEARCH_TERMS).join(' '))],
      });
      // 40 words, repeated: 809 characters, of which only the first 16 distinct words are searched.
      const query = `${words.join(' ')} ${words.join(' ')} ${words.join(' ')}`;
      expect(query.length).toBeGreaterThan(800);
      expect(searchTermsOf(query)).toEqual(words.slice(0, MAX_SEARCH_TERMS));
      expect(ignoredSearchTermsOf(query)).toEqual(words.slice(MAX_SEARCH_TERMS));
      const page = await database.repositories.transcript.searchMessages(query);
      expect(page.items.map((hit) => hit.message.id)).toEqual([stored.message.id]);
    });

    it('refuses a cursor it did not issue', async () => {
      const database = current();
      await expectStorageError(
        database.repositories.transcript.searchMessages('anything', { cursor: 'bm90LWEtY3Vyc29y' }),
        StorageErrorCode.InvalidCursor,
      );
    });
  });
}
