import type { StoredContentPart } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

async function aliceWithSession(database: TestDatabase): Promise<{ ownerUserId: string; sessionId: string }> {
  const alice = await createUser(database, 'alice');
  const session = await database.repositories.sessions.create({ ownerUserId: alice.id });
  return { ownerUserId: alice.id, sessionId: session.id };
}

const text = (value: string): StoredContentPart => ({ type: 'text', text: value });

/**
 * What an agent turn reads and writes besides plain appends: several messages in one transaction,
 * stored token counts, the history read newest first, and the lease given back with the last write.
 */
export function describeTurnReadsContract(factory: TestDatabaseFactory): void {
  describe('turn reads and writes', () => {
    const current = useTestDatabase(factory);

    it('appends several messages with consecutive seqs, token counts kept, usage summed', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript, sessions } = database.repositories;
      await turnStore.append(ownerUserId, sessionId, { role: 'user', contentParts: [text('first')] });
      const appended = await turnStore.start(ownerUserId, sessionId, [
        { role: 'user', contentParts: [text('hello')], tokenCount: 5 },
        {
          role: 'assistant',
          contentParts: [],
          status: 'pending',
          tokenCount: 4,
          usage: { input: 3, output: 2, thinking: 1, cached: 0 },
        },
      ]);
      expect(appended.created).toBe(true);
      expect(appended.messages.map((message) => [message.seq, message.role, message.status])).toEqual([
        [2, 'user', 'complete'],
        [3, 'assistant', 'pending'],
      ]);
      expect(appended.messages.map((message) => message.tokenCount)).toEqual([5, 4]);
      const session = await sessions.getForOwner(ownerUserId, sessionId);
      expect(session.messageCount).toBe(3);
      expect(session.tokenTotals).toEqual({ input: 3, output: 2, thinking: 1, cached: 0 });
      const listed = await transcript.listMessagesForOwner(ownerUserId, sessionId);
      expect(listed.items.slice(1)).toEqual(appended.messages);
    });

    it('a replayed idempotency key appends nothing of the group', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript } = database.repositories;
      const group = [
        {
          role: 'user' as const,
          contentParts: [text('pay')],
          idempotencyKey: 'k-1',
          idempotencyFingerprint: 'f',
        },
        { role: 'assistant' as const, contentParts: [], status: 'pending' as const },
      ] as const;
      const first = await turnStore.start(ownerUserId, sessionId, group);
      const again = await turnStore.start(ownerUserId, sessionId, group);
      expect(again.created).toBe(false);
      expect(again.messages).toEqual([first.messages[0]]);
      expect((await transcript.listMessagesForOwner(ownerUserId, sessionId)).items).toHaveLength(2);
      await expect(
        turnStore.start(ownerUserId, sessionId, [
          { role: 'user', contentParts: [] },
          { role: 'user', contentParts: [], idempotencyKey: 'k-2' },
        ]),
      ).rejects.toThrow(TypeError);
    });

    it('a closed or foreign session takes no group', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const stranger = await createUser(database, 'mallory');
      await expectStorageError(
        database.repositories.turnStore.start(stranger.id, sessionId, [{ role: 'user', contentParts: [] }]),
        StorageErrorCode.NotFound,
      );
      await database.repositories.sessions.close(ownerUserId, sessionId);
      await expectStorageError(
        database.repositories.turnStore.start(ownerUserId, sessionId, [{ role: 'user', contentParts: [] }]),
        StorageErrorCode.SessionClosed,
      );
    });

    it('reads complete history before a seq, newest first, for the owner only', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript } = database.repositories;
      await turnStore.append(ownerUserId, sessionId, {
        role: 'user',
        contentParts: [text('a')],
        tokenCount: 7,
      });
      const pending = await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        toolCalls: [{ id: 'c1', name: 'ls', arguments: '{}' }],
      });
      await turnStore.append(ownerUserId, sessionId, {
        role: 'tool',
        toolCallId: 'c1',
        contentParts: [text('out')],
        error: { code: 'tool_error', message: 'tool said no' },
      });
      await turnStore.append(ownerUserId, sessionId, { role: 'user', contentParts: [text('b')] });
      const history = await transcript.completeHistoryBefore(ownerUserId, sessionId, {
        beforeSeq: 5,
        limit: 10,
      });
      expect(history.map((message) => [message.seq, message.role])).toEqual([
        [4, 'tool'],
        [3, 'assistant'],
        [1, 'user'],
      ]);
      expect(history[0]).toMatchObject({ toolCallId: 'c1', isError: true, tokenCount: null });
      expect(history[1]).toMatchObject({
        toolCalls: [{ id: 'c1', name: 'ls', arguments: '{}' }],
        isError: false,
      });
      expect(history[2]).toMatchObject({ contentParts: [text('a')], tokenCount: 7 });
      expect(history.some((message) => message.id === pending.message.id)).toBe(false);
      expect(
        (await transcript.completeHistoryBefore(ownerUserId, sessionId, { beforeSeq: 5, limit: 2 })).map(
          (message) => message.seq,
        ),
      ).toEqual([4, 3]);
      const stranger = await createUser(database, 'mallory');
      expect(
        await transcript.completeHistoryBefore(stranger.id, sessionId, { beforeSeq: 9, limit: 10 }),
      ).toEqual([]);
    });

    it('fills missing token counts once, in the owner’s session only', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript } = database.repositories;
      const counted = await turnStore.append(ownerUserId, sessionId, {
        role: 'user',
        contentParts: [text('a')],
        tokenCount: 9,
      });
      const old = await turnStore.append(ownerUserId, sessionId, { role: 'user', contentParts: [text('b')] });
      const stranger = await createUser(database, 'mallory');
      await transcript.fillMissingTokenCounts(stranger.id, sessionId, [
        { messageId: old.message.id, tokenCount: 1 },
      ]);
      expect(
        (await transcript.getMessageForOwner(ownerUserId, sessionId, old.message.id)).tokenCount,
      ).toBeNull();
      await transcript.fillMissingTokenCounts(ownerUserId, sessionId, [
        { messageId: counted.message.id, tokenCount: 100 },
        { messageId: old.message.id, tokenCount: 6 },
      ]);
      expect(
        (await transcript.getMessageForOwner(ownerUserId, sessionId, counted.message.id)).tokenCount,
      ).toBe(9);
      expect((await transcript.getMessageForOwner(ownerUserId, sessionId, old.message.id)).tokenCount).toBe(
        6,
      );
    });

    it('finishing with the lease released frees the session for the next turn, only for its holder', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore } = database.repositories;
      const acquired = await turnStore.acquire(ownerUserId, sessionId, 'turn-1', 60_000);
      expect(acquired.session).toMatchObject({ id: sessionId, ownerUserId });
      const pending = await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      // Another turn's id releases nothing.
      const first = await turnStore.recordAnswer(
        ownerUserId,
        sessionId,
        pending.message.id,
        { contentParts: [text('hi')], tokenCount: 5 },
        { releaseLeaseOf: 'someone-else' },
      );
      expect(first.tokenCount).toBe(5);
      await expectStorageError(
        turnStore.acquire(ownerUserId, sessionId, 'turn-2', 60_000),
        StorageErrorCode.TurnInProgress,
      );
      const second = await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      await turnStore.fail(
        ownerUserId,
        sessionId,
        second.message.id,
        { error: { code: 'internal_error', message: 'x' } },
        { releaseLeaseOf: 'turn-1' },
      );
      await expect(turnStore.acquire(ownerUserId, sessionId, 'turn-2', 60_000)).resolves.toMatchObject({
        interruptedMessages: 0,
      });
    });
  });
}
