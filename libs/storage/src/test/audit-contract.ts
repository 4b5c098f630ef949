import { describe, expect, it } from 'vitest';
import { useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

/** The audit log: append, then list newest first with filters and pagination. */
export function describeAuditContract(factory: TestDatabaseFactory): void {
  describe('audit log', () => {
    const current = useTestDatabase(factory);

    it('appends records and reads them back exactly', async () => {
      const database = current();
      const entry = await database.repositories.audit.append({
        actorPrincipalId: 'u-admin',
        actorApiKeyId: 'k-1',
        action: 'admin.session.read',
        targetUserId: 'u-alice',
        sessionId: 's-1',
        reason: 'support ticket #42',
        requestId: 'req-1',
        clientRequestId: 'client-chosen-id',
        details: { filter: { userId: 'u-alice', label: 'ré' }, count: 3 },
      });
      expect(entry).toEqual({
        id: entry.id,
        at: new Date(database.clock.now()),
        actorPrincipalId: 'u-admin',
        actorKind: 'user',
        actorApiKeyId: 'k-1',
        wayIn: null,
        action: 'admin.session.read',
        outcome: 'succeeded',
        target: null,
        targetUserId: 'u-alice',
        sessionId: 's-1',
        reason: 'support ticket #42',
        requestId: 'req-1',
        clientRequestId: 'client-chosen-id',
        details: { filter: { userId: 'u-alice', label: 'ré' }, count: 3 },
      });
      const minimal = await database.repositories.audit.append({
        actorPrincipalId: 'u-admin',
        action: 'api-key.create',
      });
      expect(minimal).toMatchObject({
        actorKind: 'user',
        actorApiKeyId: null,
        wayIn: null,
        outcome: 'succeeded',
        target: null,
        targetUserId: null,
        sessionId: null,
        reason: null,
        requestId: null,
        clientRequestId: null,
        details: null,
      });
      expect((await database.repositories.audit.list()).items).toEqual([minimal, entry]);
    });

    it('keeps how an attempt ended, the actor’s kind and way in, and the target it aimed at', async () => {
      const database = current();
      const { audit } = database.repositories;
      const created = await audit.append({
        actorPrincipalId: 'u-admin',
        actorKind: 'user',
        actorApiKeyId: 'k-1',
        wayIn: 'console-session',
        action: 'admin.api-key.create',
        outcome: 'succeeded',
        target: { kind: 'api-key', id: 'k-2' },
        targetUserId: 'u-alice',
        details: { role: 'viewer' },
      });
      const refused = await audit.append({
        actorPrincipalId: 'unauthenticated',
        actorKind: 'unauthenticated',
        wayIn: 'api-key',
        action: 'console.sign-in',
        outcome: 'refused',
        target: { kind: 'console-session', id: null },
        details: { status: 401 },
      });
      const failed = await audit.append({
        actorPrincipalId: 'portal-1',
        actorKind: 'portal',
        action: 'session.delete',
        outcome: 'failed',
      });
      expect(await audit.list()).toEqual({ items: [failed, refused, created], nextCursor: null });
      expect(refused).toMatchObject({
        actorKind: 'unauthenticated',
        wayIn: 'api-key',
        outcome: 'refused',
        target: { kind: 'console-session', id: null },
        actorApiKeyId: null,
      });
      expect(created.target).toEqual({ kind: 'api-key', id: 'k-2' });
      expect((await audit.list({ outcome: 'refused' })).items).toEqual([refused]);
      expect((await audit.list({ outcome: 'succeeded' })).items).toEqual([created]);
      expect((await audit.list({ outcome: 'failed', action: 'session.delete' })).items).toEqual([failed]);
    });

    it('lists newest first with filters and a cursor', async () => {
      const database = current();
      const { audit } = database.repositories;
      const start = database.clock.now();
      const appended = [];
      for (let index = 0; index < 9; index += 1) {
        // Two records per millisecond: the id breaks ties.
        database.clock.set(start + Math.floor(index / 2));
        appended.push(
          await audit.append({
            actorPrincipalId: index % 2 === 0 ? 'u-admin' : 'u-viewer',
            action: index % 3 === 0 ? 'admin.sessions.list' : 'admin.session.read',
            targetUserId: index % 3 === 0 ? null : `u-${index % 2}`,
            sessionId: `s-${index}`,
          }),
        );
      }
      const newestFirst = [...appended].reverse();
      const walked = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof audit.list>> = await audit.list({}, { limit: 4, cursor });
        walked.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(walked).toEqual(newestFirst);
      expect((await audit.list({ actorPrincipalId: 'u-viewer' })).items).toEqual(
        newestFirst.filter((entry) => entry.actorPrincipalId === 'u-viewer'),
      );
      expect((await audit.list({ targetUserId: 'u-1' })).items).toEqual(
        newestFirst.filter((entry) => entry.targetUserId === 'u-1'),
      );
      expect((await audit.list({ action: 'admin.sessions.list' })).items).toEqual(
        newestFirst.filter((entry) => entry.action === 'admin.sessions.list'),
      );
      expect((await audit.list({ sessionId: 's-4' })).items).toEqual([appended[4]]);
      expect((await audit.list({ from: new Date(start + 1), before: new Date(start + 3) })).items).toEqual(
        newestFirst.filter((entry) => entry.at.getTime() >= start + 1 && entry.at.getTime() < start + 3),
      );
    });

    it('finds a record by actor, action and session since a moment, and nothing else', async () => {
      const database = current();
      const { audit } = database.repositories;
      const start = database.clock.now();
      await audit.append({ actorPrincipalId: 'u-admin', action: 'admin.session.read', sessionId: 's-1' });
      const asked = {
        actorPrincipalId: 'u-admin',
        action: 'admin.session.read',
        sessionId: 's-1',
        reason: null,
      };
      expect(await audit.hasRecordSince({ ...asked, since: new Date(start) })).toBe(true);
      expect(await audit.hasRecordSince({ ...asked, since: new Date(start - 1) })).toBe(true);
      expect(await audit.hasRecordSince({ ...asked, since: new Date(start + 1) })).toBe(false);
      // Each of the three keys must match.
      expect(
        await audit.hasRecordSince({ ...asked, actorPrincipalId: 'u-viewer', since: new Date(start) }),
      ).toBe(false);
      expect(
        await audit.hasRecordSince({
          ...asked,
          action: 'admin.session.messages.read',
          since: new Date(start),
        }),
      ).toBe(false);
      expect(await audit.hasRecordSince({ ...asked, sessionId: 's-2', since: new Date(start) })).toBe(false);
      expect(await audit.hasRecordSince({ ...asked, reason: 'ticket 7', since: new Date(start) })).toBe(
        false,
      );
      await audit.append({
        actorPrincipalId: 'u-admin',
        action: 'admin.session.read',
        sessionId: 's-1',
        reason: 'ticket 7',
      });
      expect(await audit.hasRecordSince({ ...asked, reason: 'ticket 7', since: new Date(start) })).toBe(true);
      expect(await audit.hasRecordSince({ ...asked, reason: 'ticket 8', since: new Date(start) })).toBe(
        false,
      );
      // A later record of the same kind is found from a later moment.
      database.clock.advance(10_000);
      await audit.append({ actorPrincipalId: 'u-admin', action: 'admin.session.read', sessionId: 's-1' });
      expect(await audit.hasRecordSince({ ...asked, since: new Date(start + 10_000) })).toBe(true);
      expect(await audit.hasRecordSince({ ...asked, since: new Date(start + 10_001) })).toBe(false);
      // Within a window measured back from the repository clock's now (start + 10 000).
      database.clock.advance(5_000);
      expect(await audit.hasRecordWithin(asked, 5_000)).toBe(true);
      expect(await audit.hasRecordWithin(asked, 4_999)).toBe(false);
    });
  });
}
