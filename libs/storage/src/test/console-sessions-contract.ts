import { describe, expect, it } from 'vitest';
import type { User } from '../models/user';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

const minute = 60_000;

async function adminWithKey(database: TestDatabase, name: string): Promise<{ user: User; keyId: string }> {
  const user = await createUser(database, name);
  const key = await database.repositories.apiKeys.create({
    role: 'admin',
    ownerUserId: user.id,
    prefix: `adk_${name}`,
    secretHash: `hash-${name}`,
    label: name,
  });
  return { user, keyId: key.id };
}

function newSession(user: User, keyId: string, tokenHash: string) {
  return {
    tokenHash,
    userId: user.id,
    wayIn: 'api-key' as const,
    apiKeyId: keyId,
    idleTimeoutMs: 30 * minute,
    absoluteTimeoutMs: 8 * 60 * minute,
    clientAddress: '203.0.113.7',
    userAgent: 'Chromium',
  };
}

/** Console sessions: found by token hash while open, ended at once, idle and absolute expiry. */
export function describeConsoleSessionsContract(factory: TestDatabaseFactory): void {
  describe('console sessions', () => {
    const current = useTestDatabase(factory);

    it('finds an open session by its token hash, with the key it was made with', async () => {
      const database = current();
      const { consoleSessions } = database.repositories;
      const { user, keyId } = await adminWithKey(database, 'ada');
      const created = await consoleSessions.create(newSession(user, keyId, 'token-1'));
      const now = database.clock.now();
      expect(created).toMatchObject({
        userId: user.id,
        apiKeyId: keyId,
        wayIn: 'api-key',
        clientAddress: '203.0.113.7',
        userAgent: 'Chromium',
        endedAt: null,
        endReason: null,
      });
      expect(created.idleExpiresAt.getTime()).toBe(now + 30 * minute);
      expect(created.absoluteExpiresAt.getTime()).toBe(now + 8 * 60 * minute);
      const found = await consoleSessions.findOpenByTokenHash('token-1');
      expect(found?.session).toEqual(created);
      expect(found?.apiKey).toMatchObject({ id: keyId, role: 'admin', ownerUserId: user.id });
      expect(await consoleSessions.findOpenByTokenHash('token-2')).toBeUndefined();
    });

    it('an ended session is not found again, and ending twice keeps the first end', async () => {
      const database = current();
      const { consoleSessions } = database.repositories;
      const { user, keyId } = await adminWithKey(database, 'ada');
      const created = await consoleSessions.create(newSession(user, keyId, 'token-1'));
      const ended = await consoleSessions.end(created.id, 'sign-out');
      expect(ended).toMatchObject({ endReason: 'sign-out' });
      expect(await consoleSessions.findOpenByTokenHash('token-1')).toBeUndefined();
      database.clock.advance(1_000);
      expect(await consoleSessions.end(created.id, 'ended-by-admin')).toEqual(ended);
      await expectStorageError(
        consoleSessions.end(missingId, 'sign-out'),
        StorageErrorCode.NotFound,
        'console-session',
      );
    });

    it('ends at the idle timeout unless used, and at the absolute timeout however much it is used', async () => {
      const database = current();
      const { consoleSessions } = database.repositories;
      const { user, keyId } = await adminWithKey(database, 'ada');
      await consoleSessions.create(newSession(user, keyId, 'token-1'));
      // Used every 20 minutes: the idle expiry slides, so it lives past 30 minutes…
      for (let step = 0; step < 23; step += 1) {
        database.clock.advance(20 * minute);
        const found = await consoleSessions.findOpenByTokenHash('token-1');
        expect(found, `after ${(step + 1) * 20} minutes`).toBeDefined();
        await consoleSessions.recordActivity(found!.session, 30 * minute, minute);
      }
      // …but never past the absolute 8 hours (it is now 7 h 40 min old).
      database.clock.advance(20 * minute);
      expect(await consoleSessions.findOpenByTokenHash('token-1')).toBeUndefined();

      await consoleSessions.create(newSession(user, keyId, 'token-2'));
      database.clock.advance(30 * minute);
      expect(await consoleSessions.findOpenByTokenHash('token-2')).toBeUndefined();
    });

    it('records a use at most once per interval', async () => {
      const database = current();
      const { consoleSessions } = database.repositories;
      const { user, keyId } = await adminWithKey(database, 'ada');
      const created = await consoleSessions.create(newSession(user, keyId, 'token-1'));
      database.clock.advance(30_000);
      await consoleSessions.recordActivity(created, 30 * minute, minute);
      expect((await consoleSessions.getById(created.id)).lastSeenAt).toEqual(created.lastSeenAt);
      database.clock.advance(30_000);
      await consoleSessions.recordActivity(created, 30 * minute, minute);
      const seen = await consoleSessions.getById(created.id);
      expect(seen.lastSeenAt.getTime()).toBe(created.lastSeenAt.getTime() + minute);
      expect(seen.idleExpiresAt.getTime()).toBe(seen.lastSeenAt.getTime() + 30 * minute);
    });

    it('a revoked key’s sessions are not open, and ending all of a key’s or a user’s counts only open ones', async () => {
      const database = current();
      const { consoleSessions, apiKeys } = database.repositories;
      const ada = await adminWithKey(database, 'ada');
      const bob = await adminWithKey(database, 'bob');
      await consoleSessions.create(newSession(ada.user, ada.keyId, 'ada-1'));
      await consoleSessions.create(newSession(ada.user, ada.keyId, 'ada-2'));
      const bobSession = await consoleSessions.create(newSession(bob.user, bob.keyId, 'bob-1'));

      await apiKeys.revoke(ada.keyId);
      expect(await consoleSessions.findOpenByTokenHash('ada-1')).toBeUndefined();
      expect(await consoleSessions.endAllOfApiKey(ada.keyId, 'key-revoked')).toBe(2);
      expect(await consoleSessions.endAllOfApiKey(ada.keyId, 'key-revoked')).toBe(0);
      expect(await consoleSessions.endAllOfUser(bob.user.id, 'signed-out-everywhere')).toBe(1);
      expect((await consoleSessions.getById(bobSession.id)).endReason).toBe('signed-out-everywhere');
    });

    it('lists open sessions newest first, one user’s or everyone’s, ended ones on request', async () => {
      const database = current();
      const { consoleSessions } = database.repositories;
      const ada = await adminWithKey(database, 'ada');
      const bob = await adminWithKey(database, 'bob');
      const first = await consoleSessions.create(newSession(ada.user, ada.keyId, 'ada-1'));
      database.clock.advance(1);
      const second = await consoleSessions.create(newSession(ada.user, ada.keyId, 'ada-2'));
      database.clock.advance(1);
      const bobs = await consoleSessions.create(newSession(bob.user, bob.keyId, 'bob-1'));
      await consoleSessions.end(first.id, 'sign-out');

      const ids = async (filter: Parameters<typeof consoleSessions.list>[0]) =>
        (await consoleSessions.list(filter)).items.map((session) => session.id);
      expect(await ids({})).toEqual([bobs.id, second.id]);
      expect(await ids({ userId: ada.user.id })).toEqual([second.id]);
      expect(await ids({ userId: ada.user.id, includeEnded: true })).toEqual([second.id, first.id]);
      const page = await consoleSessions.list({ includeEnded: true }, { limit: 2 });
      expect(page.items.map((session) => session.id)).toEqual([bobs.id, second.id]);
      const rest = await consoleSessions.list({ includeEnded: true }, { limit: 2, cursor: page.nextCursor });
      expect(rest.items.map((session) => session.id)).toEqual([first.id]);
    });

    it('refuses a second session with the same token hash and a session for a missing user', async () => {
      const database = current();
      const { consoleSessions } = database.repositories;
      const { user, keyId } = await adminWithKey(database, 'ada');
      await consoleSessions.create(newSession(user, keyId, 'token-1'));
      await expect(consoleSessions.create(newSession(user, keyId, 'token-1'))).rejects.toThrow();
      await expectStorageError(
        consoleSessions.create({
          ...newSession(user, keyId, 'token-2'),
          userId: missingId,
          apiKeyId: null,
          wayIn: 'oidc',
        }),
        StorageErrorCode.NotFound,
        'user',
      );
    });
  });
}
