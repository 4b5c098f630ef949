import fc from 'fast-check';
import type { StoredContentPart } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { searchTermsOf } from '../repositories/transcript/message-search';
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
          // Whatever it finds contains every searched word.
          const words = searchTermsOf(query);
          for (const hit of page.items) {
            const body = searchTermsOf(
              hit.message.contentParts.map((part) => (part.type === 'text' ? part.text : '')).join(' '),
            );
            for (const word of words) expect(body).toContain(word);
          }
        }),
        { numRuns: 40 },
      );
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
