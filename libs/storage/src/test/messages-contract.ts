import type { StoredCompressionEvent, StoredContentPart, StoredToolCall } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import { newId } from '../ids';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

async function aliceWithSession(database: TestDatabase): Promise<{ ownerUserId: string; sessionId: string }> {
  const alice = await createUser(database, 'alice');
  const session = await database.repositories.sessions.create({ ownerUserId: alice.id });
  return { ownerUserId: alice.id, sessionId: session.id };
}

const text = (value: string): StoredContentPart => ({ type: 'text', text: value });

const compressionEvent: StoredCompressionEvent = {
  type: 'scratchpad-compression',
  at: '2026-01-01T00:00:00.000Z',
  method: 'truncation',
  language: 'en',
  budgetTokens: 1000,
  entriesBefore: 2,
  entriesAfter: 2,
  tokensBefore: 9000,
  tokensBeforeExact: true,
  tokensAfter: 1000,
  newestTruncated: true,
  olderEntries: 'kept',
  summarizer: { status: 'not-needed' },
  truncatedItems: [],
  removedEntries: [],
  durationMs: 3,
};

/** Messages: order, JSON round trip, usage totals, finishing, concurrency, idempotency. */
export function describeMessagesContract(factory: TestDatabaseFactory): void {
  describe('messages', () => {
    const current = useTestDatabase(factory);

    it('appends in order and lists the transcript by seq, page by page', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript, sessions } = database.repositories;
      const roles = ['system', 'user', 'assistant', 'tool', 'user', 'assistant', 'user'] as const;
      for (const [index, role] of roles.entries()) {
        await turnStore.append(ownerUserId, sessionId, {
          role,
          contentParts: [text(`m${index}`)],
          ...(role === 'tool' ? { toolCallId: 'call-1' } : {}),
        });
      }
      const all = await transcript.listMessagesForOwner(ownerUserId, sessionId);
      expect(all.items.map((message) => [message.seq, message.role])).toEqual(
        roles.map((role, index) => [index + 1, role]),
      );
      expect(all.nextCursor).toBeNull();
      const walked = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof transcript.listMessagesForOwner>> =
          await transcript.listMessagesForOwner(ownerUserId, sessionId, { limit: 3, cursor });
        walked.push(...page.items.map((message) => message.seq));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(walked).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect((await sessions.getForOwner(ownerUserId, sessionId)).messageCount).toBe(7);
      expect((await transcript.listMessagesForAdmin(sessionId)).items).toEqual(all.items);
    });

    it('an empty session lists no messages (not NotFound)', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      expect(await database.repositories.transcript.listMessagesForOwner(ownerUserId, sessionId)).toEqual({
        items: [],
        nextCursor: null,
      });
      expect(await database.repositories.transcript.listMessagesForAdmin(sessionId)).toEqual({
        items: [],
        nextCursor: null,
      });
    });

    it('round-trips content parts, tool calls, usage, compression events and timing', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      // Fields the contract's schemas do not name are kept (`detail`, `providerMetadata`, `note`).
      const image = { type: 'image', url: 'data:image/png;base64,AAAA', detail: null } as const;
      const contentParts: StoredContentPart[] = [text('Bonjour ✓ 漢字 "quoted" \\ back'), image];
      const call = {
        id: 'call-1',
        name: 'sql',
        arguments: '{"query":"select 1","limit":10,"flags":[true,false]}',
        providerMetadata: { signature: 'abc' },
      };
      const toolCalls: StoredToolCall[] = [call];
      const event = { ...compressionEvent, note: 'kept' };
      const compressionEvents: StoredCompressionEvent[] = [event];
      const { message, created } = await database.repositories.turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts,
        toolCalls,
        usage: { input: 10, output: 20, thinking: 3, cached: 4 },
        model: 'gpt-5',
        compressionEvents,
      });
      expect(created).toBe(true);
      const read = await database.repositories.transcript.getMessageForOwner(
        ownerUserId,
        sessionId,
        message.id,
      );
      expect(read).toEqual(message);
      expect(read).toMatchObject({
        seq: 1,
        contentParts,
        toolCalls,
        usage: { input: 10, output: 20, thinking: 3, cached: 4 },
        status: 'complete',
        model: 'gpt-5',
        compressionEvents,
        error: null,
        toolCallId: null,
        startedAt: new Date(database.clock.now()),
        finishedAt: new Date(database.clock.now()),
      });
      const session = await database.repositories.sessions.getForOwner(ownerUserId, sessionId);
      expect(session.tokenTotals).toEqual({ input: 10, output: 20, thinking: 3, cached: 4 });
    });

    it('refuses to read a JSON column that does not have its contract shape, naming the column', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { message } = await database.repositories.turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [text('calls a tool')],
        toolCalls: [{ id: 'call-1', name: 'sql', arguments: '{}' }],
      });
      await database.database.db
        .updateTable('messages')
        .set({
          tool_calls: JSON.stringify([{ id: 'call-1', name: 'sql', arguments: { query: 'select 1' } }]),
        })
        .where('id', '=', message.id)
        .execute();
      await expect(
        database.repositories.transcript.getMessageForOwner(ownerUserId, sessionId, message.id),
      ).rejects.toThrow(/messages\.tool_calls/);
    });

    it('finishes a pending message once, adding its usage to the session totals', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, sessions } = database.repositories;
      const { message: pending } = await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      expect(pending).toMatchObject({ status: 'pending', finishedAt: null, usage: null });
      database.clock.advance(1500);
      const finished = await turnStore.recordAnswer(ownerUserId, sessionId, pending.id, {
        contentParts: [text('answer')],
        usage: { input: 100, output: 50, thinking: 0, cached: 25 },
        model: 'claude',
      });
      expect(finished).toMatchObject({
        status: 'complete',
        contentParts: [text('answer')],
        model: 'claude',
        finishedAt: new Date(database.clock.now()),
      });
      expect(finished.finishedAt!.getTime() - finished.startedAt.getTime()).toBe(1500);
      await expectStorageError(
        turnStore.fail(ownerUserId, sessionId, pending.id, { error: { code: 'timeout', message: 'late' } }),
        StorageErrorCode.MessageNotPending,
        'message',
      );

      const { message: second } = await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      const failed = await turnStore.fail(ownerUserId, sessionId, second.id, {
        error: {
          message: 'Overloaded',
          code: 'overloaded_error',
          status: 529,
          provider: 'anthropic',
          requestId: 'req_1',
        },
        usage: { input: 7, output: 0, thinking: 0, cached: 0 },
      });
      expect(failed).toMatchObject({
        status: 'failed',
        error: {
          message: 'Overloaded',
          code: 'overloaded_error',
          status: 529,
          provider: 'anthropic',
          requestId: 'req_1',
        },
      });
      expect((await sessions.getForOwner(ownerUserId, sessionId)).tokenTotals).toEqual({
        input: 107,
        output: 50,
        thinking: 0,
        cached: 25,
      });
    });

    it('a finish that finds no pending message changes neither the session totals nor its lease', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript, sessions, users } = database.repositories;
      const { message } = await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      const totals = { input: 1, output: 2, thinking: 0, cached: 0 };
      await turnStore.recordAnswer(ownerUserId, sessionId, message.id, {
        contentParts: [text('done')],
        usage: totals,
      });
      await turnStore.acquire(ownerUserId, sessionId, 'turn-live', 60_000);
      const late = {
        contentParts: [text('late')],
        usage: { ...totals, input: 1000 },
      } as const;
      await expectStorageError(
        turnStore.recordAnswer(ownerUserId, sessionId, message.id, late, { releaseLeaseOf: 'turn-live' }),
        StorageErrorCode.MessageNotPending,
        'message',
      );
      const bob = await users.create({ externalId: 'bob' });
      await expectStorageError(
        turnStore.recordAnswer(bob.id, sessionId, message.id, late, { releaseLeaseOf: 'turn-live' }),
        StorageErrorCode.NotFound,
      );
      expect((await sessions.getForOwner(ownerUserId, sessionId)).tokenTotals).toEqual(totals);
      expect((await transcript.getMessageForOwner(ownerUserId, sessionId, message.id)).contentParts).toEqual([
        text('done'),
      ]);
      // The live turn still holds the lease.
      await expectStorageError(
        turnStore.acquire(ownerUserId, sessionId, 'turn-next', 60_000),
        StorageErrorCode.TurnInProgress,
      );
    });

    it('a closed session takes no new messages, but a pending one can still finish', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, sessions } = database.repositories;
      const { message } = await turnStore.append(ownerUserId, sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      await sessions.close(ownerUserId, sessionId);
      await expectStorageError(
        turnStore.append(ownerUserId, sessionId, { role: 'user', contentParts: [text('late')] }),
        StorageErrorCode.SessionClosed,
        'session',
      );
      await turnStore.recordAnswer(ownerUserId, sessionId, message.id);
      expect((await sessions.getForOwner(ownerUserId, sessionId)).messageCount).toBe(1);
    });

    it('assigns distinct, gapless seq numbers to concurrent appends', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const appended = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          database.repositories.turnStore.append(ownerUserId, sessionId, {
            role: 'user',
            contentParts: [text(`m${index}`)],
            usage: { input: 1, output: 2, thinking: 0, cached: 0 },
          }),
        ),
      );
      expect(appended.map(({ message }) => message.seq).sort((left, right) => left - right)).toEqual(
        Array.from({ length: 30 }, (_, index) => index + 1),
      );
      const session = await database.repositories.sessions.getForOwner(ownerUserId, sessionId);
      expect(session.messageCount).toBe(30);
      expect(session.tokenTotals).toEqual({ input: 30, output: 60, thinking: 0, cached: 0 });
    });

    it('concurrent appends of several messages each get consecutive seq numbers, with no gap', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const groups = await Promise.all(
        Array.from({ length: 10 }, (_, group) =>
          database.repositories.turnStore.start(ownerUserId, sessionId, [
            { role: 'user', contentParts: [text(`q${group}`)] },
            {
              role: 'assistant',
              contentParts: [text(`a${group}`)],
              usage: { input: 1, output: 1, thinking: 0, cached: 0 },
            },
            { role: 'assistant', contentParts: [], status: 'pending' },
          ]),
        ),
      );
      for (const { messages } of groups) {
        const [first] = messages;
        expect(messages.map((message) => message.seq)).toEqual([first!.seq, first!.seq + 1, first!.seq + 2]);
        expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
      }
      const seqs = groups.flatMap(({ messages }) => messages.map((message) => message.seq));
      expect(seqs.sort((left, right) => left - right)).toEqual(
        Array.from({ length: 30 }, (_, index) => index + 1),
      );
      const session = await database.repositories.sessions.getForOwner(ownerUserId, sessionId);
      expect(session.messageCount).toBe(30);
      expect(session.tokenTotals).toEqual({ input: 10, output: 10, thinking: 0, cached: 0 });
    });

    it('an idempotency key appends once, even when retried concurrently', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript } = database.repositories;
      const first = await turnStore.append(ownerUserId, sessionId, {
        role: 'user',
        contentParts: [text('hi')],
        idempotencyKey: 'request-1',
      });
      const replay = await turnStore.append(ownerUserId, sessionId, {
        role: 'user',
        contentParts: [text('different')],
        idempotencyKey: 'request-1',
      });
      expect(first.created).toBe(true);
      expect(replay).toEqual({ message: first.message, created: false });

      const racing = await Promise.all(
        Array.from({ length: 8 }, () =>
          turnStore.append(ownerUserId, sessionId, {
            role: 'user',
            contentParts: [text('again')],
            idempotencyKey: 'request-2',
          }),
        ),
      );
      expect(racing.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(racing.map((result) => result.message.id)).size).toBe(1);
      const listed = await transcript.listMessagesForOwner(ownerUserId, sessionId);
      expect(listed.items.map((message) => message.seq)).toEqual([1, 2]);
      // Keys are per owner: reusing one for another session of the owner is refused.
      const other = await database.repositories.sessions.create({ ownerUserId });
      await expectStorageError(
        turnStore.append(ownerUserId, other.id, {
          role: 'user',
          contentParts: [],
          idempotencyKey: 'request-1',
        }),
        StorageErrorCode.IdempotencyKeyReused,
        'message',
      );
      expect((await transcript.listMessagesForOwner(ownerUserId, other.id)).items).toEqual([]);
    });

    it('keeps an id the caller made (alone, or first of several); a replay keeps the first request’s id', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, transcript } = database.repositories;
      const [alone, together, retried] = [newId(), newId(), newId()];
      expect(
        (await turnStore.append(ownerUserId, sessionId, { id: alone, role: 'user', contentParts: [] }))
          .message.id,
      ).toBe(alone);
      // With and without an idempotency key (on PostgreSQL these are two different statements).
      for (const idempotencyKey of [null, 'made-id']) {
        const id = idempotencyKey === null ? together : newId();
        const appended = await turnStore.start(ownerUserId, sessionId, [
          { id, role: 'user', contentParts: [text('question')], idempotencyKey },
          { role: 'assistant', contentParts: [], status: 'pending' },
        ]);
        expect(appended.messages[0]?.id).toBe(id);
        expect(appended.messages[1]?.id).not.toBe(id);
        if (idempotencyKey !== null) {
          const replay = await turnStore.start(ownerUserId, sessionId, [
            { id: retried, role: 'user', contentParts: [text('question')], idempotencyKey },
          ]);
          expect(replay).toEqual({ messages: [appended.messages[0]], created: false });
        }
      }
      const ids = (await transcript.listMessagesForOwner(ownerUserId, sessionId)).items.map(
        (message) => message.id,
      );
      expect(ids).toContain(alone);
      expect(ids).toContain(together);
      expect(ids).not.toContain(retried);
    });

    it('an idempotency key replays only the request it came with: the same fingerprint, the same session', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      const { turnStore, sessions, users } = database.repositories;
      const keyed = (fingerprint: string | undefined, target = sessionId) =>
        turnStore.append(ownerUserId, target, {
          role: 'user',
          contentParts: [text('pay invoice 7')],
          idempotencyKey: 'pay-7',
          ...(fingerprint !== undefined && { idempotencyFingerprint: fingerprint }),
        });
      const first = await keyed('fingerprint-a');
      expect(await keyed('fingerprint-a')).toEqual({ message: first.message, created: false });
      for (const other of ['fingerprint-b', undefined]) {
        const refused = await expectStorageError(keyed(other), StorageErrorCode.IdempotencyKeyReused);
        expect(refused.message).toContain('different request');
      }
      const otherSession = await sessions.create({ ownerUserId });
      const elsewhere = await expectStorageError(
        keyed('fingerprint-a', otherSession.id),
        StorageErrorCode.IdempotencyKeyReused,
      );
      expect(elsewhere.message).toContain('another session');
      // Concurrent reuse on several sessions at once: the first request wins, every other is refused.
      const targets = [sessionId, otherSession.id, (await sessions.create({ ownerUserId })).id];
      const racing = await Promise.allSettled(
        targets.flatMap((target) =>
          [0, 1].map(() =>
            turnStore.append(ownerUserId, target, {
              role: 'user',
              contentParts: [],
              idempotencyKey: 'race',
              idempotencyFingerprint: `for ${target}`,
            }),
          ),
        ),
      );
      const stored = racing.flatMap((outcome) =>
        outcome.status === 'fulfilled' ? [outcome.value.message] : [],
      );
      expect(new Set(stored.map((message) => message.id)).size).toBe(1);
      expect(stored).toHaveLength(2);
      for (const outcome of racing) {
        if (outcome.status === 'rejected')
          expect(outcome.reason).toMatchObject({ code: StorageErrorCode.IdempotencyKeyReused });
      }
      // Another owner's keys are their own.
      const bob = await users.create({ externalId: 'bob' });
      const bobSession = await sessions.create({ ownerUserId: bob.id });
      const bobs = await turnStore.append(bob.id, bobSession.id, {
        role: 'user',
        contentParts: [],
        idempotencyKey: 'pay-7',
        idempotencyFingerprint: 'fingerprint-b',
      });
      expect(bobs.created).toBe(true);
    });

    it('rejects a bad message cursor', async () => {
      const database = current();
      const { ownerUserId, sessionId } = await aliceWithSession(database);
      await expectStorageError(
        database.repositories.transcript.listMessagesForOwner(ownerUserId, sessionId, { cursor: '!!' }),
        StorageErrorCode.InvalidCursor,
      );
    });
  });
}
