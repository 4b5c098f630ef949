import { describe, expect, it } from 'vitest';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

/** Full tool results: stored whole, one per tool call, tied to a message of the same session. */
export function describeToolResultsContract(factory: TestDatabaseFactory): void {
  describe('tool results', () => {
    const current = useTestDatabase(factory);

    it('keeps a multi-megabyte result whole and lists summaries without content', async () => {
      const database = current();
      const { sessions, turnStore, transcript } = database.repositories;
      const alice = await createUser(database, 'alice');
      const session = await sessions.create({ ownerUserId: alice.id });
      const { message } = await turnStore.append(alice.id, session.id, {
        role: 'tool',
        contentParts: [{ type: 'text', text: '[truncated]' }],
        toolCallId: 'call-1',
      });
      const content = `${'row,é,漢\n'.repeat(300_000)}end`;
      const saved = await turnStore.keepToolResult(alice.id, {
        sessionId: session.id,
        messageId: message.id,
        toolCallId: 'call-1',
        content,
      });
      expect(saved).toMatchObject({
        sessionId: session.id,
        messageId: message.id,
        toolCallId: 'call-1',
        charCount: content.length,
      });
      const read = await transcript.getToolResultForOwner(alice.id, session.id, 'call-1');
      expect(read.content).toBe(content);
      database.clock.advance(1);
      await turnStore.keepToolResult(alice.id, {
        sessionId: session.id,
        toolCallId: 'call-2',
        content: 'small',
      });
      const list = await transcript.listToolResultsForOwner(alice.id, session.id);
      expect(list.items.map((item) => [item.toolCallId, item.charCount])).toEqual([
        ['call-1', content.length],
        ['call-2', 5],
      ]);
      expect(list.items[0]).not.toHaveProperty('content');
      expect(await transcript.listToolResultsForAdmin(session.id)).toEqual(list);
      expect((await transcript.getToolResultForAdmin(session.id, 'call-1')).content).toBe(content);
    });

    it('refuses a second result for one tool call, and a message from another session', async () => {
      const database = current();
      const { sessions, turnStore, transcript } = database.repositories;
      const alice = await createUser(database, 'alice');
      const first = await sessions.create({ ownerUserId: alice.id });
      const second = await sessions.create({ ownerUserId: alice.id });
      const { message } = await turnStore.append(alice.id, second.id, {
        role: 'tool',
        contentParts: [],
        toolCallId: 'call-1',
      });
      await turnStore.keepToolResult(alice.id, { sessionId: first.id, toolCallId: 'call-1', content: 'a' });
      await expectStorageError(
        turnStore.keepToolResult(alice.id, { sessionId: first.id, toolCallId: 'call-1', content: 'b' }),
        StorageErrorCode.Conflict,
        'tool-result',
      );
      await expectStorageError(
        turnStore.keepToolResult(alice.id, {
          sessionId: first.id,
          messageId: message.id,
          toolCallId: 'call-2',
          content: 'c',
        }),
        StorageErrorCode.NotFound,
        'message',
      );
      await expectStorageError(
        transcript.getToolResultForOwner(alice.id, first.id, 'call-9'),
        StorageErrorCode.NotFound,
        'tool-result',
      );
    });
  });
}
