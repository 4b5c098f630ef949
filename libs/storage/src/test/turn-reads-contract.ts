import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

async function aliceWithSession(database: TestDatabase): Promise<{ ownerUserId: string; sessionId: string }> {
  const alice = await createUser(database, 'alice');
  const session = await database.repositories.sessions.create({ ownerUserId: alice.id });
  return { ownerUserId: alice.id, sessionId: session.id };
}

const text = (value: string): JsonObject => ({ type: 'text', text: value });

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
      const { messages, sessions } = database.repositories;
      await messages.append(ownerUserId, sessionId, { role: 'user', contentParts: [text('first')] });
      const appended = await messages.appendAll(ownerUserId, sessionId, [
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
      const listed = await messages.listForOwner(ownerUserId, sessionId);
      expect(listed.items.slice(1)).toEqual(appended.messages);
    });

    it('a replayed idempotency key appends nothing of the group', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { messages } = database.repositories;
      const group = [
        {
          role: 'user' as const,
          contentParts: [text('pay')],
          idempotencyKey: 'k-1',
          idempotencyFingerprint: 'f',
        },
        { role: 'assistant' as const, contentParts: [], status: 'pending' as const },
      ] as const;
      const first = await messages.appendAll(ownerUserId, sessionId, group);
      const again = await messages.appendAll(ownerUserId, sessionId, group);
      expect(again.created).toBe(false);
      expect(again.messages).toEqual([first.messages[0]]);
      expect((await messages.listForOwner(ownerUserId, sessionId)).items).toHaveLength(2);
      await expect(
        messages.appendAll(ownerUserId, sessionId, [
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
        database.repositories.messages.appendAll(stranger.id, sessionId, [
          { role: 'user', contentParts: [] },
        ]),
        StorageErrorCode.NotFound,
      );
      await database.repositories.sessions.close(ownerUserId, sessionId);
      await expectStorageError(
        database.repositories.messages.appendAll(ownerUserId, sessionId, [
          { role: 'user', contentParts: [] },
        ]),
        StorageErrorCode.SessionClosed,
      );
    });

    it('reads complete history before a seq, newest first, for the owner only', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { messages } = database.repositories;
      await messages.append(ownerUserId, sessionId, {
        role: 'user',
        contentParts: [text('a')],
        tokenCount: 7,
      });
      const pending = await messages.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      await messages.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        toolCalls: [{ id: 'c1', name: 'ls', arguments: '{}' }],
      });
      await messages.append(ownerUserId, sessionId, {
        role: 'tool',
        toolCallId: 'c1',
        contentParts: [text('out')],
        error: { message: 'tool said no' },
      });
      await messages.append(ownerUserId, sessionId, { role: 'user', contentParts: [text('b')] });
      const history = await messages.completeHistoryBefore(ownerUserId, sessionId, {
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
        (await messages.completeHistoryBefore(ownerUserId, sessionId, { beforeSeq: 5, limit: 2 })).map(
          (message) => message.seq,
        ),
      ).toEqual([4, 3]);
      const stranger = await createUser(database, 'mallory');
      expect(
        await messages.completeHistoryBefore(stranger.id, sessionId, { beforeSeq: 9, limit: 10 }),
      ).toEqual([]);
    });

    it('fills missing token counts once, in the owner’s session only', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { messages } = database.repositories;
      const counted = await messages.append(ownerUserId, sessionId, {
        role: 'user',
        contentParts: [text('a')],
        tokenCount: 9,
      });
      const old = await messages.append(ownerUserId, sessionId, { role: 'user', contentParts: [text('b')] });
      const stranger = await createUser(database, 'mallory');
      await messages.fillMissingTokenCounts(stranger.id, sessionId, [
        { messageId: old.message.id, tokenCount: 1 },
      ]);
      expect((await messages.getForOwner(ownerUserId, sessionId, old.message.id)).tokenCount).toBeNull();
      await messages.fillMissingTokenCounts(ownerUserId, sessionId, [
        { messageId: counted.message.id, tokenCount: 100 },
        { messageId: old.message.id, tokenCount: 6 },
      ]);
      expect((await messages.getForOwner(ownerUserId, sessionId, counted.message.id)).tokenCount).toBe(9);
      expect((await messages.getForOwner(ownerUserId, sessionId, old.message.id)).tokenCount).toBe(6);
    });

    it('finishing with the lease released frees the session for the next turn, only for its holder', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { messages, turns } = database.repositories;
      const acquired = await turns.acquire(ownerUserId, sessionId, 'turn-1', 60_000);
      expect(acquired.session).toMatchObject({ id: sessionId, ownerUserId });
      const pending = await messages.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      // Another turn's id releases nothing.
      const first = await messages.finish(
        ownerUserId,
        sessionId,
        pending.message.id,
        { status: 'complete', contentParts: [text('hi')], tokenCount: 5 },
        { releaseLeaseOf: 'someone-else' },
      );
      expect(first.tokenCount).toBe(5);
      await expectStorageError(
        turns.acquire(ownerUserId, sessionId, 'turn-2', 60_000),
        StorageErrorCode.TurnInProgress,
      );
      const second = await messages.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      await messages.finish(
        ownerUserId,
        sessionId,
        second.message.id,
        { status: 'failed', error: { message: 'x' } },
        { releaseLeaseOf: 'turn-1' },
      );
      await expect(turns.acquire(ownerUserId, sessionId, 'turn-2', 60_000)).resolves.toMatchObject({
        interruptedMessages: 0,
      });
    });
  });
}
