import { describe, expect, it } from 'vitest';
import { utcDayOf, type NewUsageEvent } from '../repositories/usage-repository';
import { useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

/** The people directory: prefix search on name, email and external id, role, sessions, last activity, usage. */
export function describePeopleContract(factory: TestDatabaseFactory): void {
  describe('people directory', () => {
    const current = useTestDatabase(factory);

    async function seedPeople(database: TestDatabase) {
      const { users, apiKeys, ssoIdentities } = database.repositories;
      const alice = await users.create({ externalId: 'alice-local', displayName: 'Alice Liddell' });
      database.clock.advance(1);
      const bob = await users.create({ portalId: 'shop', externalId: 'CUST-0042', displayName: 'Bob Stone' });
      database.clock.advance(1);
      const carol = (
        await ssoIdentities.provision({
          issuer: 'https://idp.example',
          subject: 'carol-sub',
          email: 'Carol.Jones@Example.com',
          name: 'Carol Jones',
          role: 'viewer',
        })
      ).identity;
      database.clock.advance(1);
      const unnamed = await users.create({ portalId: 'shop', externalId: 'ali-unnamed' });
      await apiKeys.create({
        prefix: 'adk_a',
        secretHash: 'hash-a',
        label: 'alice admin',
        role: 'admin',
        ownerUserId: alice.id,
      });
      await apiKeys.create({
        prefix: 'adk_b',
        secretHash: 'hash-b',
        label: 'alice user',
        role: 'user',
        ownerUserId: alice.id,
      });
      return { alice, bob, carolId: carol.userId, unnamed };
    }

    const wholeRange = { fromDay: '2000-01-01', toDay: '2100-01-01' };

    it('finds people by a case-insensitive prefix of their name, email or external id', async () => {
      const database = current();
      const { alice, bob, carolId, unnamed } = await seedPeople(database);
      const ids = async (prefix: string) =>
        (await database.repositories.people.list({ prefix }, wholeRange)).items.map(
          (person) => person.user.id,
        );
      // "ali" starts alice's name and the unnamed user's external id; newest first.
      expect(await ids('ali')).toEqual([unnamed.id, alice.id]);
      expect(await ids('ALICE L')).toEqual([alice.id]);
      expect(await ids('cust-00')).toEqual([bob.id]);
      expect(await ids('carol.jones@')).toEqual([carolId]);
      expect(await ids('CAROL')).toEqual([carolId]);
      // A prefix, not a substring: "stone" is inside Bob's name, not at its start.
      expect(await ids('stone')).toEqual([]);
      expect(await ids('alice liddellx')).toEqual([]);
      // Wildcards are text, not patterns.
      expect(await ids('%')).toEqual([]);
      expect(await ids('_')).toEqual([]);
    });

    it('folds case beyond ASCII the same on both engines: "élodie" finds "Élodie", "ZOË" finds "Zoë"', async () => {
      const database = current();
      const { users, ssoIdentities } = database.repositories;
      const elodie = await users.create({
        portalId: 'shop',
        externalId: 'ÉLO-1',
        displayName: 'Élodie Ångström',
      });
      const zoe = await users.create({ portalId: 'shop', externalId: 'z-1', displayName: 'Zoë Σίσυφος' });
      const istanbul = (
        await ssoIdentities.provision({
          issuer: 'https://idp.example',
          subject: 'istanbul-sub',
          email: 'İREM@ÖRNEK.TR',
          name: 'İrem',
          role: 'viewer',
        })
      ).identity;
      const ids = async (prefix: string) =>
        (await database.repositories.people.list({ prefix }, wholeRange)).items.map(
          (person) => person.user.id,
        );
      for (const prefix of ['élodie', 'ÉLODIE', 'Élodie å', 'élo-'])
        expect(await ids(prefix), prefix).toEqual([elodie.id]);
      for (const prefix of ['zoë', 'ZOË', 'zoë σίσυφος', 'ZOË ΣΊΣΥΦΟ'])
        expect(await ids(prefix), prefix).toEqual([zoe.id]);
      for (const prefix of ['irem@örnek', 'İREM', 'irem'])
        expect(await ids(prefix), prefix).toEqual([istanbul.userId]);
      // Folding is of case only: accents still count.
      expect(await ids('elodie')).toEqual([]);
      expect(await ids('zoe')).toEqual([]);
    });

    it('lists a search in the order of the matched key, then id, and pages it stably', async () => {
      const database = current();
      const { users, people } = database.repositories;
      // Created in an order unlike the names' order; three match twice (name and external id).
      const kc = await users.create({ externalId: 'kz3', displayName: 'Kc' });
      const kd = await users.create({ portalId: 'shop', externalId: 'kd' });
      const ka = await users.create({ externalId: 'kz1', displayName: 'KA' });
      const kb = await users.create({ portalId: 'shop', externalId: 'kz2', displayName: 'kb' });
      const sameKey = await users.create({ externalId: 'KE', displayName: 'ke' });
      await users.create({ externalId: 'other', displayName: 'Other' });
      const expected = [ka.id, kb.id, kc.id, kd.id, sameKey.id];
      const whole = await people.list({ prefix: 'k' }, wholeRange);
      expect(whole.items.map((person) => person.user.id)).toEqual(expected);
      expect(whole.nextCursor).toBeNull();
      for (const limit of [1, 2, 3]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof people.list>> = await people.list(
            { prefix: 'K' },
            wholeRange,
            { limit, cursor },
          );
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items.map((person) => person.user.id));
          cursor = page.nextCursor;
        } while (cursor !== null);
        expect(seen).toEqual(expected);
      }
      // Filters narrow a search without changing its order.
      const shop = await people.list({ prefix: 'k', portalId: 'shop' }, wholeRange);
      expect(shop.items.map((person) => person.user.id)).toEqual([kb.id, kd.id]);
      // A cursor of the newest-first list means nothing in this order.
      const newestFirst = await people.list({}, wholeRange, { limit: 1 });
      await expect(
        people.list({ prefix: 'k' }, wholeRange, { cursor: newestFirst.nextCursor }),
      ).rejects.toMatchObject({ code: 'STORAGE_INVALID_CURSOR' });
    });

    it('filters by portal and by role, and shows each person’s most powerful role and email', async () => {
      const database = current();
      const { alice, bob, carolId, unnamed } = await seedPeople(database);
      const { people } = database.repositories;
      const byPortal = await people.list({ portalId: 'shop' }, wholeRange);
      expect(byPortal.items.map((person) => person.user.id)).toEqual([unnamed.id, bob.id]);
      expect((await people.list({ role: 'admin' }, wholeRange)).items.map((p) => p.user.id)).toEqual([
        alice.id,
      ]);
      expect((await people.list({ role: 'user' }, wholeRange)).items.map((p) => p.user.id)).toEqual([
        alice.id,
      ]);
      expect((await people.list({ role: 'viewer' }, wholeRange)).items.map((p) => p.user.id)).toEqual([
        carolId,
      ]);
      expect((await people.list({ role: 'portal' }, wholeRange)).items).toEqual([]);
      const everyone = new Map(
        (await people.list({}, wholeRange)).items.map((person) => [person.user.id, person]),
      );
      expect(everyone.get(alice.id)).toMatchObject({ role: 'admin', email: null });
      expect(everyone.get(carolId)).toMatchObject({ role: 'viewer', email: 'Carol.Jones@Example.com' });
      expect(everyone.get(bob.id)).toMatchObject({ role: null, email: null });
    });

    it('counts each person’s sessions and takes their last activity from their sessions', async () => {
      const database = current();
      const { alice, bob } = await seedPeople(database);
      const { sessions, people } = database.repositories;
      await sessions.create({ ownerUserId: alice.id, label: 'one' });
      database.clock.advance(1000);
      const second = await sessions.create({ ownerUserId: alice.id, label: 'two' });
      database.clock.advance(5000);
      const renamedAt = database.clock.now();
      await sessions.rename(alice.id, second.id, 'renamed');
      const aliceRow = await people.get(alice.id, wholeRange);
      expect(aliceRow).toMatchObject({ sessionCount: 2, lastActiveAt: new Date(renamedAt) });
      expect(await people.get(bob.id, wholeRange)).toMatchObject({ sessionCount: 0, lastActiveAt: null });
      await sessions.delete(alice.id, second.id);
      expect(await people.get(alice.id, wholeRange)).toMatchObject({ sessionCount: 1 });
      expect(await people.get('00000000-0000-7000-8000-000000000000', wholeRange)).toBeUndefined();
    });

    it('sums tokens and cost over the range asked, for the page’s people only', async () => {
      const database = current();
      const { alice, bob } = await seedPeople(database);
      const day = 86_400_000;
      const start = Date.UTC(2026, 0, 10, 12);
      const event = (id: string, endUserId: string, at: number, tokens: number): NewUsageEvent => ({
        id,
        occurredAt: at,
        source: 'agent-turn',
        model: 'gpt-test',
        provider: 'openai',
        apiKeyId: null,
        portalId: null,
        endUserId,
        inputTokens: tokens,
        outputTokens: 2 * tokens,
        thinkingTokens: 0,
        cachedTokens: 0,
        latencyMs: 5,
        status: 'ok',
        costMicros: tokens * 10,
        priceId: null,
      });
      await database.repositories.usage.recordBatch([
        event('e1', alice.id, start, 100),
        event('e2', alice.id, start + day, 50),
        event('e3', alice.id, start + 5 * day, 7),
        event('e4', bob.id, start, 1),
      ]);
      const range = { fromDay: utcDayOf(start), toDay: utcDayOf(start + day) };
      const alicesUsage = (await database.repositories.people.get(alice.id, range))?.usage;
      expect(alicesUsage).toMatchObject({
        inputTokens: 150,
        outputTokens: 300,
        modelCalls: 2,
        costMicros: 1500,
      });
      const outside = { fromDay: '2025-01-01', toDay: '2025-12-31' };
      expect((await database.repositories.people.get(alice.id, outside))?.usage).toMatchObject({
        inputTokens: 0,
        modelCalls: 0,
        costMicros: 0,
      });
    });

    it('names a page of ids in one read and resolves a name, email or external id exactly', async () => {
      const database = current();
      const { alice, bob, carolId, unnamed } = await seedPeople(database);
      const { people } = database.repositories;
      const names = await people.namesOf([alice.id, bob.id, unnamed.id, null, alice.id]);
      expect([...names.entries()].sort()).toEqual(
        [
          [alice.id, 'Alice Liddell'],
          [bob.id, 'Bob Stone'],
        ].sort(),
      );
      expect(await people.resolve('alice liddell')).toEqual([alice.id]);
      expect(await people.resolve('cust-0042')).toEqual([bob.id]);
      expect(await people.resolve('carol.jones@example.com')).toEqual([carolId]);
      expect(await people.resolve(alice.id)).toEqual([alice.id]);
      expect(await people.resolve('alice')).toEqual([]);
    });

    it('keeps a portal end user’s display name as the portal last sent it', async () => {
      const { users } = current().repositories;
      const first = await users.ensurePortalUser('shop', 'dave', 'Dave');
      expect(first.displayName).toBe('Dave');
      const unchanged = await users.ensurePortalUser('shop', 'dave');
      expect(unchanged.displayName).toBe('Dave');
      const renamed = await users.ensurePortalUser('shop', 'dave', 'David Hume');
      expect(renamed).toMatchObject({ id: first.id, displayName: 'David Hume' });
      expect((await users.getById(first.id)).displayName).toBe('David Hume');
    });
  });
}
