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
    r.messages.append(owner, session, { role: 'user', contentParts: [{ type: 'text', text: 'injected' }] }),
  'messages.append (idempotency key of the owner)': (r, owner, session) =>
    r.messages.append(owner, session, { role: 'user', contentParts: [], idempotencyKey: 'alice-key' }),
  'messages.listForOwner': (r, owner, session) => r.messages.listForOwner(owner, session),
  'messages.getForOwner': (r, owner, session, message) => r.messages.getForOwner(owner, session, message),
  'messages.finish (complete)': (r, owner, session, message) =>
    r.messages.finish(owner, session, message, {
      status: 'complete',
      usage: { input: 1, output: 1, thinking: 0, cached: 0 },
    }),
  'messages.finish (failed)': (r, owner, session, message) =>
    r.messages.finish(owner, session, message, { status: 'failed', error: { message: 'x' } }),
  'toolResults.save': (r, owner, session) =>
    r.toolResults.save(owner, { sessionId: session, toolCallId: 'call-new', content: 'x' }),
  'toolResults.getForOwner': (r, owner, session) => r.toolResults.getForOwner(owner, session, 'call-1'),
  'toolResults.listForOwner': (r, owner, session) => r.toolResults.listForOwner(owner, session),
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
        const { message } = await repositories.messages.append(alice.id, session.id, {
          role: 'assistant',
          contentParts: [],
          status: 'pending',
          idempotencyKey: 'alice-key',
        });
        await repositories.toolResults.save(alice.id, {
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
        expect((await repositories.messages.listForAdmin(session.id)).items).toEqual([message]);
        expect((await repositories.toolResults.getForAdmin(session.id, 'call-1')).content).toBe('secret');
        expect((await repositories.toolResults.listForAdmin(session.id)).items).toHaveLength(1);
        // And the owner still succeeds, so the refusal above was about ownership alone.
        await operation(repositories, alice.id, session.id, message.id);
      },
    );
  });
}
