import { describe, expect, it } from 'vitest';
import type { Repositories } from '../repositories';
import { StorageError, StorageErrorCode } from '../storage-error';
import { createUser, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

type OwnerOperation = (
  repositories: Repositories,
  ownerUserId: string,
  sessionId: string,
  messageId: string,
) => Promise<unknown>;

// Every owner-scoped method, including the writes: each must treat a foreign id as missing.
const ownerOperations: Record<string, OwnerOperation> = {
  'sessions.getForOwner': (r, owner, session) => r.sessions.getForOwner(owner, session),
  'sessions.update': (r, owner, session) =>
    r.sessions.update(owner, session, { label: 'hijacked', metadata: { hijacked: true } }),
  'sessions.rename': (r, owner, session) => r.sessions.rename(owner, session, 'hijacked'),
  'sessions.close': (r, owner, session) => r.sessions.close(owner, session),
  'sessions.delete': (r, owner, session) => r.sessions.delete(owner, session),
  'messages.append': (r, owner, session) =>
    r.turnStore.append(owner, session, { role: 'user', contentParts: [{ type: 'text', text: 'injected' }] }),
  'messages.append (idempotency key of the owner)': (r, owner, session) =>
    r.turnStore.append(owner, session, { role: 'user', contentParts: [], idempotencyKey: 'alice-key' }),
  'transcript.listMessagesForOwner': (r, owner, session) => r.transcript.listMessagesForOwner(owner, session),
  'transcript.getMessageForOwner': (r, owner, session, message) =>
    r.transcript.getMessageForOwner(owner, session, message),
  'turnStore.recordAnswer': (r, owner, session, message) =>
    r.turnStore.recordAnswer(owner, session, message, {
      usage: { input: 1, output: 1, thinking: 0, cached: 0 },
    }),
  'turnStore.fail': (r, owner, session, message) =>
    r.turnStore.fail(owner, session, message, { error: { code: 'internal_error', message: 'x' } }),
  'toolResults.save': (r, owner, session) =>
    r.turnStore.keepToolResult(owner, { sessionId: session, toolCallId: 'call-new', content: 'x' }),
  'transcript.getToolResultForOwner': (r, owner, session) =>
    r.transcript.getToolResultForOwner(owner, session, 'call-1'),
  'transcript.listToolResultsForOwner': (r, owner, session) =>
    r.transcript.listToolResultsForOwner(owner, session),
};

async function rejection(promise: Promise<unknown>): Promise<StorageError> {
  const reason = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  expect(reason).toBeInstanceOf(StorageError);
  return reason as StorageError;
}

/** Ownership inside the query: a foreign id answers exactly like a missing one, and changes nothing. */
export function describeOwnershipContract(factory: TestDatabaseFactory): void {
  describe('ownership scoping', () => {
    const current = useTestDatabase(factory);

    it.each(Object.entries(ownerOperations))(
      '%s: a foreign id behaves exactly like a missing one',
      async (_name, operation) => {
        const database = current();
        const { repositories } = database;
        const alice = await createUser(database, 'alice');
        const bob = await createUser(database, 'bob');
        const session = await repositories.sessions.create({ ownerUserId: alice.id, label: 'private' });
        const { message } = await repositories.turnStore.append(alice.id, session.id, {
          role: 'assistant',
          contentParts: [],
          status: 'pending',
          idempotencyKey: 'alice-key',
        });
        await repositories.turnStore.keepToolResult(alice.id, {
          sessionId: session.id,
          messageId: message.id,
          toolCallId: 'call-1',
          content: 'secret',
        });
        const before = await repositories.sessions.getForAdmin(session.id);

        const foreign = await rejection(operation(repositories, bob.id, session.id, message.id));
        const missing = await rejection(operation(repositories, bob.id, missingId, missingId));
        expect(foreign.code).toBe(StorageErrorCode.NotFound);
        expect({ code: foreign.code, entity: foreign.entity, message: foreign.message }).toEqual({
          code: missing.code,
          entity: missing.entity,
          message: missing.message,
        });

        // Nothing of Alice's changed.
        expect(await repositories.sessions.getForAdmin(session.id)).toEqual(before);
        expect((await repositories.transcript.listMessagesForAdmin(session.id)).items).toEqual([message]);
        expect((await repositories.transcript.getToolResultForAdmin(session.id, 'call-1')).content).toBe(
          'secret',
        );
        expect((await repositories.transcript.listToolResultsForAdmin(session.id)).items).toHaveLength(1);
        // And the owner still succeeds, so the refusal above was about ownership alone.
        await operation(repositories, alice.id, session.id, message.id);
      },
    );
  });
}
