import { describe, expect, it } from 'vitest';
import { StorageErrorCode } from '../storage-error';
import { interruptedTurnError } from '../repositories/turns-repository';
import { createUser, expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

/** The per-session turn lease and crash recovery. */
export function describeTurnsContract(factory: TestDatabaseFactory): void {
  describe('agent turn lease', () => {
    const current = useTestDatabase(factory);

    async function sessionOf(name: string) {
      const database = current();
      const owner = await createUser(database, name);
      const session = await database.repositories.sessions.create({ ownerUserId: owner.id, label: 'x' });
      return { database, owner, session };
    }

    it('lets one turn at a time hold a session, and frees it on release', async () => {
      const { database, owner, session } = await sessionOf('alice');
      const { turns } = database.repositories;
      await turns.acquire(owner.id, session.id, 'turn-1', 60_000);
      await expectStorageError(
        turns.acquire(owner.id, session.id, 'turn-2', 60_000),
        StorageErrorCode.TurnInProgress,
        'session',
      );
      await turns.release(session.id, 'turn-2'); // not the holder: no effect
      await expectStorageError(
        turns.acquire(owner.id, session.id, 'turn-2', 60_000),
        StorageErrorCode.TurnInProgress,
      );
      await turns.release(session.id, 'turn-1');
      await turns.acquire(owner.id, session.id, 'turn-2', 60_000);
    });

    it('races: of many concurrent acquisitions exactly one wins', async () => {
      const { database, owner, session } = await sessionOf('bob');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, index) =>
          database.repositories.turns.acquire(owner.id, session.id, `turn-${index}`, 60_000),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    });

    it('an expired lease can be taken over; a renewed one cannot', async () => {
      const { database, owner, session } = await sessionOf('carol');
      const { turns } = database.repositories;
      await turns.acquire(owner.id, session.id, 'old', 1_000);
      database.clock.advance(500);
      await turns.renew(session.id, 'old', 1_000);
      database.clock.advance(900);
      await expectStorageError(
        turns.acquire(owner.id, session.id, 'new', 1_000),
        StorageErrorCode.TurnInProgress,
      );
      database.clock.advance(200);
      await turns.acquire(owner.id, session.id, 'new', 1_000);
    });

    it('answers foreign and missing sessions alike, and closed ones as closed', async () => {
      const { database, session } = await sessionOf('dave');
      const stranger = await createUser(database, 'mallory');
      await expectStorageError(
        database.repositories.turns.acquire(stranger.id, session.id, 't', 1_000),
        StorageErrorCode.NotFound,
        'session',
      );
      await expectStorageError(
        database.repositories.turns.acquire(stranger.id, missingId, 't', 1_000),
        StorageErrorCode.NotFound,
        'session',
      );
      await database.repositories.sessions.close(session.ownerUserId, session.id);
      await expectStorageError(
        database.repositories.turns.acquire(session.ownerUserId, session.id, 't', 1_000),
        StorageErrorCode.SessionClosed,
      );
    });

    it('recovery marks interrupted turns failed: all of them after a single-process restart, expired ones otherwise', async () => {
      const { database, owner, session } = await sessionOf('erin');
      const other = await database.repositories.sessions.create({ ownerUserId: owner.id, label: 'y' });
      const { turns, messages } = database.repositories;
      for (const [target, lease] of [
        [session.id, 1_000],
        [other.id, 60_000],
      ] as const) {
        await turns.acquire(owner.id, target, `turn-${target}`, lease);
        await messages.append(owner.id, target, {
          role: 'user',
          contentParts: [{ type: 'text', text: 'hi' }],
        });
        await messages.append(owner.id, target, { role: 'assistant', contentParts: [], status: 'pending' });
      }
      database.clock.advance(2_000);
      expect(await turns.recoverInterrupted({ all: false })).toEqual({ sessions: 1, messages: 1 });
      const recovered = (await messages.listForOwner(owner.id, session.id)).items;
      expect(recovered.map((message) => [message.role, message.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'failed'],
      ]);
      expect(recovered[1]?.error).toEqual(interruptedTurnError);
      expect((await messages.listForOwner(owner.id, other.id)).items[1]?.status).toBe('pending');
      expect(await turns.recoverInterrupted({ all: true })).toEqual({ sessions: 1, messages: 1 });
      await turns.acquire(owner.id, session.id, 'after-restart', 1_000);
      await turns.acquire(owner.id, other.id, 'after-restart', 1_000);
    });
  });
}
