import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StorageErrorCode } from '../storage-error';
import { interruptedTurnError } from '../repositories/transcript/turn-lease';
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
      const { turnStore } = database.repositories;
      await turnStore.acquire(owner.id, session.id, 'turn-1', 60_000);
      await expectStorageError(
        turnStore.acquire(owner.id, session.id, 'turn-2', 60_000),
        StorageErrorCode.TurnInProgress,
        'session',
      );
      await turnStore.release(session.id, 'turn-2'); // not the holder: no effect
      await expectStorageError(
        turnStore.acquire(owner.id, session.id, 'turn-2', 60_000),
        StorageErrorCode.TurnInProgress,
      );
      await turnStore.release(session.id, 'turn-1');
      await turnStore.acquire(owner.id, session.id, 'turn-2', 60_000);
    });

    it('races: of many concurrent acquisitions exactly one wins', async () => {
      const { database, owner, session } = await sessionOf('bob');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, index) =>
          database.repositories.turnStore.acquire(owner.id, session.id, `turn-${index}`, 60_000),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    });

    it('an expired lease can be taken over; a renewed one cannot', async () => {
      const { database, owner, session } = await sessionOf('carol');
      const { turnStore } = database.repositories;
      await turnStore.acquire(owner.id, session.id, 'old', 1_000);
      database.clock.advance(500);
      await turnStore.renew(session.id, 'old', 1_000);
      database.clock.advance(900);
      await expectStorageError(
        turnStore.acquire(owner.id, session.id, 'new', 1_000),
        StorageErrorCode.TurnInProgress,
      );
      database.clock.advance(200);
      await turnStore.acquire(owner.id, session.id, 'new', 1_000);
    });

    it('taking over an expired lease fails the previous turn’s pending messages, and says how many', async () => {
      const { database, owner, session } = await sessionOf('frank');
      const { turnStore, transcript } = database.repositories;
      expect(await turnStore.acquire(owner.id, session.id, 'crashed', 1_000)).toMatchObject({
        interruptedMessages: 0,
      });
      await turnStore.append(owner.id, session.id, {
        role: 'user',
        contentParts: [{ type: 'text', text: 'q' }],
      });
      const done = await turnStore.append(owner.id, session.id, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      await turnStore.recordAnswer(owner.id, session.id, done.message.id);
      await turnStore.append(owner.id, session.id, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      database.clock.advance(1_001);
      expect(await turnStore.acquire(owner.id, session.id, 'next', 1_000)).toMatchObject({
        interruptedMessages: 1,
      });
      const listed = (await transcript.listMessagesForOwner(owner.id, session.id)).items;
      expect(listed.map((message) => message.status)).toEqual(['complete', 'complete', 'failed']);
      expect(listed[2]?.error).toEqual(interruptedTurnError);
      expect(listed[2]?.finishedAt).toEqual(new Date(database.clock.now()));
      // The dead turn learns it lost the lease, and its release does not free the new holder's.
      expect(await turnStore.renew(session.id, 'crashed', 1_000)).toBe(false);
      await turnStore.release(session.id, 'crashed');
      await expectStorageError(
        turnStore.acquire(owner.id, session.id, 'third', 1_000),
        StorageErrorCode.TurnInProgress,
      );
    });

    it('a lease that has not expired is not taken over and its pending message is left alone', async () => {
      const { database, owner, session } = await sessionOf('grace');
      const { turnStore, transcript } = database.repositories;
      await turnStore.acquire(owner.id, session.id, 'live', 1_000);
      await turnStore.append(owner.id, session.id, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      database.clock.advance(1_000); // expires_at == now: still held
      await expectStorageError(
        turnStore.acquire(owner.id, session.id, 'intruder', 1_000),
        StorageErrorCode.TurnInProgress,
      );
      expect(await turnStore.recoverInterrupted({ all: false })).toEqual({ sessions: 0, messages: 0 });
      expect((await transcript.listMessagesForOwner(owner.id, session.id)).items[0]?.status).toBe('pending');
    });

    it('renewal by a non-holder has no effect', async () => {
      const { database, owner, session } = await sessionOf('heidi');
      const { turnStore } = database.repositories;
      await turnStore.acquire(owner.id, session.id, 'holder', 1_000);
      database.clock.advance(900);
      expect(await turnStore.renew(session.id, 'stranger', 60_000)).toBe(false);
      database.clock.advance(101);
      // Had the stranger's renewal counted, the lease would run for another minute.
      expect(await turnStore.acquire(owner.id, session.id, 'next', 1_000)).toMatchObject({
        interruptedMessages: 0,
      });
      expect(await turnStore.renew(session.id, 'holder', 1_000)).toBe(false);
      expect(await turnStore.renew(session.id, 'next', 1_000)).toBe(true);
    });

    it('a sweep fails expired turns only; a sweep racing another counts each message once', async () => {
      const { database, owner, session } = await sessionOf('ivan');
      const { turnStore, transcript, sessions } = database.repositories;
      const live = await sessions.create({ ownerUserId: owner.id, label: 'live' });
      const expired = [session, await sessions.create({ ownerUserId: owner.id, label: 'expired too' })];
      for (const target of expired) {
        await turnStore.acquire(owner.id, target.id, 'dead', 1_000);
        await turnStore.append(owner.id, target.id, {
          role: 'assistant',
          contentParts: [],
          status: 'pending',
        });
      }
      database.clock.advance(800);
      await turnStore.acquire(owner.id, live.id, 'alive', 1_000);
      await turnStore.append(owner.id, live.id, { role: 'assistant', contentParts: [], status: 'pending' });
      database.clock.advance(500);
      const sweeps = await Promise.all([
        turnStore.recoverInterrupted({ all: false }),
        turnStore.recoverInterrupted({ all: false }),
      ]);
      expect(sweeps.reduce((total, sweep) => total + sweep.sessions, 0)).toBe(2);
      expect(sweeps.reduce((total, sweep) => total + sweep.messages, 0)).toBe(2);
      for (const target of expired) {
        const [message] = (await transcript.listMessagesForOwner(owner.id, target.id)).items;
        expect(message).toMatchObject({ status: 'failed', error: interruptedTurnError });
        await turnStore.acquire(owner.id, target.id, 'after-sweep', 1_000);
      }
      expect((await transcript.listMessagesForOwner(owner.id, live.id)).items[0]?.status).toBe('pending');
      expect(await turnStore.renew(live.id, 'alive', 1_000)).toBe(true);
    });

    it('property: acquire, renew, release, sweep and time agree with a one-holder lease model', async () => {
      const { database, owner } = await sessionOf('judy');
      const { turnStore, transcript, sessions } = database.repositories;
      const leaseMs = 1_000;
      const holders = ['turn-a', 'turn-b', 'turn-c'] as const;
      const step = fc.oneof(
        fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 1_500 }) }),
        fc.record({ kind: fc.constant('acquire' as const), turn: fc.constantFrom(...holders) }),
        fc.record({ kind: fc.constant('renew' as const), turn: fc.constantFrom(...holders) }),
        fc.record({ kind: fc.constant('release' as const), turn: fc.constantFrom(...holders) }),
        fc.record({ kind: fc.constant('append-pending' as const) }),
        fc.record({ kind: fc.constant('sweep' as const) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
          const session = await sessions.create({ ownerUserId: owner.id, label: 'model' });
          const model = { holder: null as string | null, expiresAt: 0, pending: 0 };
          const expired = () => model.holder !== null && model.expiresAt < database.clock.now();
          for (const current of steps) {
            switch (current.kind) {
              case 'advance':
                database.clock.advance(current.ms);
                break;
              case 'acquire': {
                const acquired = turnStore.acquire(owner.id, session.id, current.turn, leaseMs);
                if (model.holder === null || expired()) {
                  expect(await acquired).toMatchObject({ interruptedMessages: model.pending });
                  Object.assign(model, {
                    holder: current.turn,
                    expiresAt: database.clock.now() + leaseMs,
                    pending: 0,
                  });
                } else await expectStorageError(acquired, StorageErrorCode.TurnInProgress);
                break;
              }
              case 'renew': {
                const held = model.holder === current.turn;
                expect(await turnStore.renew(session.id, current.turn, leaseMs)).toBe(held);
                if (held) model.expiresAt = database.clock.now() + leaseMs;
                break;
              }
              case 'release':
                await turnStore.release(session.id, current.turn);
                if (model.holder === current.turn) model.holder = null;
                break;
              case 'append-pending':
                await turnStore.append(owner.id, session.id, {
                  role: 'assistant',
                  contentParts: [],
                  status: 'pending',
                });
                model.pending += 1;
                break;
              case 'sweep': {
                const clearedSessions = expired() ? 1 : 0;
                if (clearedSessions) model.holder = null;
                const failedMessages = model.holder === null ? model.pending : 0;
                if (model.holder === null) model.pending = 0;
                expect(await turnStore.recoverInterrupted({ all: false })).toEqual({
                  sessions: clearedSessions,
                  messages: failedMessages,
                });
                break;
              }
            }
          }
          const pending = (await transcript.listMessagesForOwner(owner.id, session.id)).items.filter(
            (message) => message.status === 'pending',
          );
          expect(pending).toHaveLength(model.pending);
          // Leave nothing behind for the next run's sweep counts.
          await turnStore.recoverInterrupted({ all: true });
        }),
        { numRuns: 40 },
      );
    });

    it('answers foreign and missing sessions alike, and closed ones as closed', async () => {
      const { database, session } = await sessionOf('dave');
      const stranger = await createUser(database, 'mallory');
      await expectStorageError(
        database.repositories.turnStore.acquire(stranger.id, session.id, 't', 1_000),
        StorageErrorCode.NotFound,
        'session',
      );
      await expectStorageError(
        database.repositories.turnStore.acquire(stranger.id, missingId, 't', 1_000),
        StorageErrorCode.NotFound,
        'session',
      );
      await database.repositories.sessions.close(session.ownerUserId, session.id);
      await expectStorageError(
        database.repositories.turnStore.acquire(session.ownerUserId, session.id, 't', 1_000),
        StorageErrorCode.SessionClosed,
      );
    });

    it('recovery marks interrupted turns failed: all of them after a single-process restart, expired ones otherwise', async () => {
      const { database, owner, session } = await sessionOf('erin');
      const other = await database.repositories.sessions.create({ ownerUserId: owner.id, label: 'y' });
      const { turnStore, transcript } = database.repositories;
      for (const [target, lease] of [
        [session.id, 1_000],
        [other.id, 60_000],
      ] as const) {
        await turnStore.acquire(owner.id, target, `turn-${target}`, lease);
        await turnStore.append(owner.id, target, {
          role: 'user',
          contentParts: [{ type: 'text', text: 'hi' }],
        });
        await turnStore.append(owner.id, target, { role: 'assistant', contentParts: [], status: 'pending' });
      }
      database.clock.advance(2_000);
      expect(await turnStore.recoverInterrupted({ all: false })).toEqual({ sessions: 1, messages: 1 });
      const recovered = (await transcript.listMessagesForOwner(owner.id, session.id)).items;
      expect(recovered.map((message) => [message.role, message.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'failed'],
      ]);
      expect(recovered[1]?.error).toEqual(interruptedTurnError);
      expect((await transcript.listMessagesForOwner(owner.id, other.id)).items[1]?.status).toBe('pending');
      expect(await turnStore.recoverInterrupted({ all: true })).toEqual({ sessions: 1, messages: 1 });
      await turnStore.acquire(owner.id, session.id, 'after-restart', 1_000);
      await turnStore.acquire(owner.id, other.id, 'after-restart', 1_000);
    });
  });
}
