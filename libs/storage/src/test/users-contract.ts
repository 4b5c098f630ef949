import { describe, expect, it } from 'vitest';
import { StorageErrorCode } from '../storage-error';
import { expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

/** Users: creation, per-portal uniqueness, get-or-create for portal end users, admin listing. */
export function describeUsersContract(factory: TestDatabaseFactory): void {
  describe('users', () => {
    const current = useTestDatabase(factory);

    it('creates a user and reads it back by id', async () => {
      const { repositories, clock } = current();
      const user = await repositories.users.create({
        portalId: 'p1',
        externalId: 'alice',
        displayName: 'Alice',
      });
      expect(user).toEqual({
        id: user.id,
        portalId: 'p1',
        externalId: 'alice',
        displayName: 'Alice',
        createdAt: new Date(clock.now()),
      });
      expect(await repositories.users.getById(user.id)).toEqual(user);
    });

    it('answers NotFound for an unknown id', async () => {
      await expectStorageError(
        current().repositories.users.getById(missingId),
        StorageErrorCode.NotFound,
        'user',
      );
    });

    it('keeps one user per (portal, external id): P1 alice and P2 alice are different users', async () => {
      const { users } = current().repositories;
      const p1Alice = await users.create({ portalId: 'p1', externalId: 'alice' });
      const p2Alice = await users.create({ portalId: 'p2', externalId: 'alice' });
      const localAlice = await users.create({ externalId: 'alice' });
      expect(new Set([p1Alice.id, p2Alice.id, localAlice.id]).size).toBe(3);
      await expectStorageError(
        users.create({ portalId: 'p1', externalId: 'alice' }),
        StorageErrorCode.Conflict,
        'user',
      );
      await expectStorageError(users.create({ externalId: 'alice' }), StorageErrorCode.Conflict, 'user');
      expect((await users.findByExternalId('p2', 'alice'))?.id).toBe(p2Alice.id);
      expect((await users.findByExternalId(null, 'alice'))?.id).toBe(localAlice.id);
      expect(await users.findByExternalId('p3', 'alice')).toBeUndefined();
    });

    it('ensurePortalUser creates once and converges under concurrency', async () => {
      const { users } = current().repositories;
      const all = await Promise.all(
        Array.from({ length: 10 }, () => users.ensurePortalUser('p1', 'bob', 'Bob')),
      );
      expect(new Set(all.map((user) => user.id)).size).toBe(1);
      const again = await users.ensurePortalUser('p1', 'bob');
      expect(again.id).toBe(all[0]!.id);
      expect((await users.ensurePortalUser('p2', 'bob')).id).not.toBe(again.id);
    });

    it('lists users for admins, newest first, filtered by portal and search text', async () => {
      const database = current();
      const { users } = database.repositories;
      const created = [];
      for (const [portalId, externalId, displayName] of [
        ['p1', 'alice', 'Alice Martin'],
        ['p1', 'bob', null],
        ['p2', 'carol', 'Carol 100%'],
        [null, 'dave', 'Dave'],
      ] as const) {
        database.clock.advance(1000);
        created.push(await users.create({ portalId, externalId, displayName }));
      }
      const all = await users.listForAdmin();
      expect(all.items.map((user) => user.externalId)).toEqual(['dave', 'carol', 'bob', 'alice']);
      expect((await users.listForAdmin({ portalId: 'p1' })).items.map((user) => user.externalId)).toEqual([
        'bob',
        'alice',
      ]);
      expect((await users.listForAdmin({ search: 'MARTIN' })).items.map((user) => user.externalId)).toEqual([
        'alice',
      ]);
      expect((await users.listForAdmin({ search: '100%' })).items.map((user) => user.externalId)).toEqual([
        'carol',
      ]);
      expect((await users.listForAdmin({ search: '%' })).items.map((user) => user.externalId)).toEqual([
        'carol',
      ]);
      const first = await users.listForAdmin({}, { limit: 3 });
      const second = await users.listForAdmin({}, { limit: 3, cursor: first.nextCursor });
      expect([...first.items, ...second.items].map((user) => user.id)).toEqual(
        created.map((user) => user.id).reverse(),
      );
      expect(second.nextCursor).toBeNull();
    });
  });
}
