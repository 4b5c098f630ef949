import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../ids';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

/** API keys: lookup by hash, immediate revocation, throttled last-use writes, constraints. */
export function describeApiKeysContract(factory: TestDatabaseFactory): void {
  describe('api keys', () => {
    const current = useTestDatabase(factory);

    it('stores a portal key and a user key and finds each by secret hash', async () => {
      const database = current();
      const { apiKeys } = database.repositories;
      const admin = await createUser(database, 'admin');
      const portalKey = await apiKeys.create({
        role: 'portal',
        portalId: 'p1',
        trustClientUserId: true,
        prefix: 'adk_p',
        secretHash: 'hash-portal',
        label: 'Portal one',
      });
      const adminKey = await apiKeys.create({
        id: newId(),
        role: 'admin',
        ownerUserId: admin.id,
        prefix: 'adk_a',
        secretHash: 'hash-admin',
        label: 'Bootstrap',
      });
      expect(portalKey).toMatchObject({
        role: 'portal',
        portalId: 'p1',
        ownerUserId: null,
        trustClientUserId: true,
        revokedAt: null,
        lastUsedAt: null,
      });
      expect(adminKey).toMatchObject({
        role: 'admin',
        ownerUserId: admin.id,
        portalId: null,
        trustClientUserId: false,
      });
      expect(await apiKeys.findActiveBySecretHash('hash-portal')).toEqual(portalKey);
      expect(await apiKeys.findActiveBySecretHash('hash-admin')).toEqual(adminKey);
      expect(await apiKeys.findActiveBySecretHash('hash-unknown')).toBeUndefined();
    });

    it('revocation takes effect on the next lookup and is idempotent', async () => {
      const database = current();
      const { apiKeys } = database.repositories;
      const key = await apiKeys.create({
        role: 'portal',
        portalId: 'p1',
        prefix: 'adk_p',
        secretHash: 'hash-1',
        label: 'k',
      });
      database.clock.advance(5000);
      const revoked = await apiKeys.revoke(key.id);
      expect(revoked.revokedAt).toEqual(new Date(database.clock.now()));
      expect(await apiKeys.findActiveBySecretHash('hash-1')).toBeUndefined();
      database.clock.advance(5000);
      expect((await apiKeys.revoke(key.id)).revokedAt).toEqual(revoked.revokedAt);
      await expectStorageError(apiKeys.revoke(missingId), StorageErrorCode.NotFound, 'api-key');
    });

    it('rejects duplicate hashes and unknown owners', async () => {
      const database = current();
      const { apiKeys } = database.repositories;
      await apiKeys.create({
        role: 'portal',
        portalId: 'p1',
        prefix: 'adk_p',
        secretHash: 'same',
        label: 'a',
      });
      await expectStorageError(
        apiKeys.create({ role: 'portal', portalId: 'p2', prefix: 'adk_p', secretHash: 'same', label: 'b' }),
        StorageErrorCode.Conflict,
        'api-key',
      );
      await expectStorageError(
        apiKeys.create({
          role: 'user',
          ownerUserId: missingId,
          prefix: 'adk_u',
          secretHash: 'other',
          label: 'c',
        }),
        StorageErrorCode.NotFound,
        'user',
      );
    });

    it('the schema refuses a trusted non-portal key and a user key without owner', async () => {
      const { db } = current().database;
      const insert = (role: string, owner: string | null, portal: string | null, trust: number) =>
        sql`insert into api_keys (id, prefix, secret_hash, role, owner_user_id, portal_id, trust_client_user_id, label, created_at)
            values (${newId()}, 'p', ${newId()}, ${role}, ${owner}, ${portal}, ${trust}, 'l', 0)`.execute(db);
      await expect(insert('admin', null, null, 0)).rejects.toThrow();
      await expect(insert('portal', null, null, 0)).rejects.toThrow();
      await expect(insert('superuser', null, 'p1', 0)).rejects.toThrow();
      const user = await createUser(current(), 'u');
      await expect(insert('user', user.id, null, 1)).rejects.toThrow();
    });

    it('stores a qa key (0019 widened the role check) and keeps every constraint, index and reference', async () => {
      const database = current();
      const { apiKeys } = database.repositories;
      const qa = await createUser(database, 'qa');
      const key = await apiKeys.create({
        role: 'qa',
        ownerUserId: qa.id,
        prefix: 'adk_q',
        secretHash: 'hash-qa',
        label: 'QA',
      });
      expect(await apiKeys.findActiveBySecretHash('hash-qa')).toEqual(key);
      await expect(
        sql`insert into api_keys (id, prefix, secret_hash, role, owner_user_id, portal_id, trust_client_user_id, label, created_at)
            values (${newId()}, 'p', 'hash-qa', 'qa', ${qa.id}, null, 0, 'again', 0)`.execute(
          database.database.db,
        ),
      ).rejects.toThrow();
      if (database.database.dialect === 'sqlite') {
        // The rebuilt table is the one console sessions point at, and its indexes came back.
        const references = await sql<{ table: string }>`pragma foreign_key_list(console_sessions)`.execute(
          database.database.db,
        );
        expect(references.rows.map((row) => row.table)).toContain('api_keys');
        const indexes = await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'api_keys'`.execute(
          database.database.db,
        );
        expect(indexes.rows.map((row) => row.name)).toEqual(
          expect.arrayContaining([
            'api_keys_secret_hash_unique',
            'api_keys_created_at_id',
            'api_keys_owner_user_id',
          ]),
        );
      }
    });

    it('records use at most once per interval', async () => {
      const database = current();
      const { apiKeys } = database.repositories;
      const key = await apiKeys.create({
        role: 'portal',
        portalId: 'p1',
        prefix: 'adk_p',
        secretHash: 'h',
        label: 'k',
      });
      const first = database.clock.now();
      await apiKeys.recordUse(key.id);
      database.clock.advance(30_000);
      await apiKeys.recordUse(key.id);
      expect((await apiKeys.getById(key.id)).lastUsedAt).toEqual(new Date(first));
      database.clock.advance(30_000);
      await apiKeys.recordUse(key.id);
      expect((await apiKeys.getById(key.id)).lastUsedAt).toEqual(new Date(database.clock.now()));
    });

    it('lists keys newest first, hiding revoked ones unless asked', async () => {
      const database = current();
      const { apiKeys } = database.repositories;
      const keys = [];
      for (const hash of ['a', 'b', 'c']) {
        database.clock.advance(1000);
        keys.push(
          await apiKeys.create({
            role: 'portal',
            portalId: 'p1',
            prefix: 'adk_p',
            secretHash: hash,
            label: hash,
          }),
        );
      }
      await apiKeys.revoke(keys[1]!.id);
      expect((await apiKeys.list()).items.map((key) => key.label)).toEqual(['c', 'a']);
      expect((await apiKeys.list({ includeRevoked: true })).items.map((key) => key.label)).toEqual([
        'c',
        'b',
        'a',
      ]);
      const page = await apiKeys.list({ includeRevoked: true }, { limit: 2 });
      const rest = await apiKeys.list({ includeRevoked: true }, { limit: 2, cursor: page.nextCursor });
      expect([...page.items, ...rest.items].map((key) => key.label)).toEqual(['c', 'b', 'a']);
    });

    it('createFirst stores a key only into an empty table: of concurrent callers exactly one, revoked keys counting', async () => {
      const database = current();
      const { apiKeys } = database.repositories;
      const admin = await createUser(database, 'admin');
      const first = (index: number) =>
        apiKeys.createFirst({
          role: 'admin',
          ownerUserId: admin.id,
          prefix: 'adk_first',
          secretHash: `hash-first-${index}`,
          label: `first ${index}`,
        });
      // Connections opened beforehand (a pool's first queries wait for them), so the six overlap.
      await Promise.all(Array.from({ length: 6 }, () => sql`select 1`.execute(database.database.db)));
      const results = await Promise.all(Array.from({ length: 6 }, (_, index) => first(index)));
      const stored = results.filter((result) => result !== undefined);
      expect(stored).toHaveLength(1);
      expect((await apiKeys.list({ includeRevoked: true })).items).toEqual(stored);
      await apiKeys.revoke(stored[0]!.id);
      expect(await first(99)).toBeUndefined();
    });
  });
}
