import { describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../pagination';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

/** Sessions: CRUD for the owner, admin reads, filters. */
export function describeSessionsContract(factory: TestDatabaseFactory): void {
  describe('sessions', () => {
    const current = useTestDatabase(factory);

    it('creates an open session with defaults, taking the portal from the owner', async () => {
      const database = current();
      const { users, sessions } = database.repositories;
      const alice = await users.create({ portalId: 'p1', externalId: 'alice' });
      const session = await sessions.create({ ownerUserId: alice.id });
      const now = new Date(database.clock.now());
      expect(session).toEqual({
        id: session.id,
        ownerUserId: alice.id,
        portalId: 'p1',
        label: '',
        status: 'open',
        model: null,
        systemPrompt: null,
        metadata: {},
        tokenTotals: { input: 0, output: 0, thinking: 0, cached: 0 },
        costMicros: 0,
        unpricedCalls: 0,
        messageCount: 0,
        createdAt: now,
        updatedAt: now,
      });
      expect(await sessions.getForOwner(alice.id, session.id)).toEqual(session);
    });

    it('round-trips model, system prompt and nested metadata', async () => {
      const database = current();
      const alice = await createUser(database, 'alice');
      const metadata = {
        source: 'portal',
        tags: ['a', 'b'],
        nested: { count: 2, flag: true, none: null },
        unicode: 'é ✓ 漢字',
      };
      const session = await database.repositories.sessions.create({
        ownerUserId: alice.id,
        label: 'Q3 report',
        model: 'gpt-5',
        systemPrompt: 'Be brief.',
        metadata,
      });
      const read = await database.repositories.sessions.getForOwner(alice.id, session.id);
      expect(read).toMatchObject({ label: 'Q3 report', model: 'gpt-5', systemPrompt: 'Be brief.', metadata });
    });

    it('refuses an unknown owner', async () => {
      await expectStorageError(
        current().repositories.sessions.create({ ownerUserId: missingId }),
        StorageErrorCode.NotFound,
        'user',
      );
    });

    it('updates, renames and closes (closing twice is harmless)', async () => {
      const database = current();
      const { sessions } = database.repositories;
      const alice = await createUser(database, 'alice');
      const session = await sessions.create({ ownerUserId: alice.id, label: 'old' });
      database.clock.advance(1000);
      const renamed = await sessions.rename(alice.id, session.id, 'new');
      expect(renamed.label).toBe('new');
      expect(renamed.updatedAt).toEqual(new Date(database.clock.now()));
      const updated = await sessions.update(alice.id, session.id, {
        model: 'claude',
        systemPrompt: null,
        metadata: { k: 1 },
      });
      expect(updated).toMatchObject({
        label: 'new',
        model: 'claude',
        systemPrompt: null,
        metadata: { k: 1 },
      });
      database.clock.advance(1000);
      const closed = await sessions.close(alice.id, session.id);
      expect(closed.status).toBe('closed');
      database.clock.advance(1000);
      expect(await sessions.close(alice.id, session.id)).toEqual(closed);
    });

    it('deletes a session with its messages and tool results', async () => {
      const database = current();
      const { sessions, turnStore, transcript } = database.repositories;
      const alice = await createUser(database, 'alice');
      const session = await sessions.create({ ownerUserId: alice.id });
      const { message } = await turnStore.append(alice.id, session.id, {
        role: 'tool',
        contentParts: [{ type: 'text', text: 'x' }],
        toolCallId: 'call-1',
      });
      await turnStore.keepToolResult(alice.id, {
        sessionId: session.id,
        messageId: message.id,
        toolCallId: 'call-1',
        content: 'full',
      });
      await sessions.delete(alice.id, session.id);
      await expectStorageError(sessions.getForAdmin(session.id), StorageErrorCode.NotFound, 'session');
      await expectStorageError(
        transcript.getToolResultForAdmin(session.id, 'call-1'),
        StorageErrorCode.NotFound,
        'tool-result',
      );
      await expectStorageError(
        transcript.listMessagesForAdmin(session.id),
        StorageErrorCode.NotFound,
        'session',
      );
      await expectStorageError(sessions.delete(alice.id, session.id), StorageErrorCode.NotFound, 'session');
    });

    it('lists only the owner’s sessions, newest first', async () => {
      const database = current();
      const { sessions } = database.repositories;
      const alice = await createUser(database, 'alice');
      const bob = await createUser(database, 'bob');
      const aliceIds = [];
      for (let index = 0; index < 3; index += 1) {
        database.clock.advance(1000);
        aliceIds.push((await sessions.create({ ownerUserId: alice.id })).id);
        await sessions.create({ ownerUserId: bob.id });
      }
      const page = await sessions.listForOwner(alice.id);
      expect(page.items.map((session) => session.id)).toEqual(aliceIds.reverse());
      expect(page.nextCursor).toBeNull();
    });

    it('admin reads any session and lists across users with every filter', async () => {
      const database = current();
      const { sessions } = database.repositories;
      const alice = await createUser(database, 'alice');
      const bob = await createUser(database, 'bob');
      const start = database.clock.now();
      const made: { id: string; owner: string; label: string; at: number; closed: boolean }[] = [];
      const specs = [
        [alice.id, 'Quarterly REPORT', false],
        [bob.id, 'report draft', true],
        [alice.id, 'holiday plan', true],
        [bob.id, '100% done_ok', false],
        [alice.id, 'Report final', false],
      ] as const;
      for (const [owner, label, closed] of specs) {
        database.clock.advance(60_000);
        const session = await sessions.create({ ownerUserId: owner, label });
        if (closed) await sessions.close(owner, session.id);
        made.push({ id: session.id, owner, label, at: database.clock.now(), closed });
      }
      const newestFirst = [...made].reverse();
      const ids = (list: typeof made) => list.map((session) => session.id);

      expect((await sessions.getForAdmin(made[1]!.id)).ownerUserId).toBe(bob.id);
      const check = async (
        filter: Parameters<typeof sessions.listAllSessionsForAdmin>[0],
        expected: typeof made,
      ) => {
        expect((await sessions.listAllSessionsForAdmin(filter)).items.map((session) => session.id)).toEqual(
          ids(expected),
        );
      };
      await check({}, newestFirst);
      await check(
        { ownerUserId: bob.id },
        newestFirst.filter((session) => session.owner === bob.id),
      );
      await check(
        { status: 'closed' },
        newestFirst.filter((session) => session.closed),
      );
      await check(
        { status: 'open', ownerUserId: alice.id },
        newestFirst.filter((session) => !session.closed && session.owner === alice.id),
      );
      await check(
        { labelContains: 'report' },
        newestFirst.filter((session) => session.label.toLowerCase().includes('report')),
      );
      await check({ labelContains: '100%' }, [made[3]!]);
      await check({ labelContains: '_' }, [made[3]!]);
      await check({ labelContains: '%' }, [made[3]!]);
      await check({ createdFrom: new Date(start + 120_000), createdBefore: new Date(start + 240_000) }, [
        made[2]!,
        made[1]!,
      ]);
      await check(
        { createdFrom: new Date(start + 120_000), labelContains: 'REPORT', ownerUserId: alice.id },
        [made[4]!],
      );
      await check({ ownerUserId: missingId }, []);
      // The owner's own list takes the same filters.
      expect(
        (await sessions.listForOwner(alice.id, { status: 'closed' })).items.map((session) => session.id),
      ).toEqual([made[2]!.id]);
    });

    it('admin lists filtered by portal and model exactly, newest first across pages', async () => {
      const database = current();
      const { sessions, users } = database.repositories;
      const acme = await users.create({ portalId: 'acme', externalId: 'a1' });
      const acmeToo = await users.create({ portalId: 'acme', externalId: 'a2' });
      const globex = await users.create({ portalId: 'globex', externalId: 'g1' });
      const staff = await createUser(database, 'staff');
      const made: { id: string; portal: string | null; model: string | null }[] = [];
      const specs = [
        [acme, 'gpt-4o'],
        [globex, 'gpt-4o'],
        [acmeToo, 'claude-sonnet-4'],
        [staff, 'gpt-4o'],
        [acme, null],
        [acmeToo, 'gpt-4o'],
        [globex, 'GPT-4O'],
        [acme, 'gpt-4o-mini'],
      ] as const;
      for (const [owner, model] of specs) {
        database.clock.advance(1_000);
        const session = await sessions.create({ ownerUserId: owner.id, model });
        made.push({ id: session.id, portal: owner.portalId, model });
      }
      const newestFirst = [...made].reverse();
      const walk = async (filter: Parameters<typeof sessions.listAllSessionsForAdmin>[0]) => {
        const ids: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof sessions.listAllSessionsForAdmin>> =
            await sessions.listAllSessionsForAdmin(filter, { limit: 2, cursor });
          ids.push(...page.items.map((session) => session.id));
          cursor = page.nextCursor;
        } while (cursor !== null);
        return ids;
      };
      const expected = (keep: (session: (typeof made)[number]) => boolean) =>
        newestFirst.filter(keep).map((session) => session.id);

      expect(await walk({ portalId: 'acme' })).toEqual(expected((session) => session.portal === 'acme'));
      expect(await walk({ model: 'gpt-4o' })).toEqual(expected((session) => session.model === 'gpt-4o'));
      expect(await walk({ portalId: 'acme', model: 'gpt-4o' })).toEqual(
        expected((session) => session.portal === 'acme' && session.model === 'gpt-4o'),
      );
      expect(await walk({ portalId: 'globex', ownerUserId: globex.id, model: 'GPT-4O' })).toEqual([
        made[6]!.id,
      ]);
      // Exact: no prefix, substring or case folding.
      expect(await walk({ portalId: 'acm' })).toEqual([]);
      expect(await walk({ model: 'gpt' })).toEqual([]);
      expect(await walk({ portalId: 'ACME' })).toEqual([]);
      expect(await walk({ model: 'gpt-4o%' })).toEqual([]);
    });

    it('caps the page size and rejects foreign cursors', async () => {
      const database = current();
      const { sessions } = database.repositories;
      const alice = await createUser(database, 'alice');
      for (let index = 0; index < MAX_PAGE_SIZE + 1; index += 1)
        await sessions.create({ ownerUserId: alice.id });
      const page = await sessions.listAllSessionsForAdmin({}, { limit: 10_000 });
      expect(page.items).toHaveLength(MAX_PAGE_SIZE);
      expect(page.nextCursor).not.toBeNull();
      expect((await sessions.listForOwner(alice.id, {}, { limit: 0 })).items).toHaveLength(1);
      await expectStorageError(
        sessions.listAllSessionsForAdmin({}, { cursor: 'not-a-cursor' }),
        StorageErrorCode.InvalidCursor,
        'cursor',
      );
      await expectStorageError(
        sessions.listAllSessionsForAdmin({}, { cursor: Buffer.from('["s",1]').toString('base64url') }),
        StorageErrorCode.InvalidCursor,
      );
    });
  });
}
