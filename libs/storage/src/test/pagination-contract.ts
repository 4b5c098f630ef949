import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '../models/session';
import type { AdminSessionFilter } from '../repositories/sessions-repository';
import { createUser, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

interface SeededSession {
  readonly id: string;
  readonly ownerUserId: string;
  readonly status: SessionStatus;
  readonly label: string;
  readonly createdAt: number;
}

const labels = ['alpha', 'Beta report', 'gamma', 'REPORT delta', 'epsilon'];

/**
 * Seeds sessions over 3 users with many identical timestamps (several per millisecond), so the
 * `id` tie-breaker of the keyset is exercised, not just `created_at`.
 */
async function seed(database: TestDatabase): Promise<{ sessions: SeededSession[]; userIds: string[] }> {
  const users = await Promise.all(['u1', 'u2', 'u3'].map((name) => createUser(database, name)));
  const start = database.clock.now();
  const sessions: SeededSession[] = [];
  for (let index = 0; index < 41; index += 1) {
    database.clock.set(start + Math.floor(index / 4) * 1000);
    const owner = users[index % 3]!;
    const label = `${labels[index % labels.length]!} ${index}`;
    const session = await database.repositories.sessions.create({ ownerUserId: owner.id, label });
    const status: SessionStatus = index % 5 === 0 ? 'closed' : 'open';
    if (status === 'closed') await database.repositories.sessions.close(owner.id, session.id);
    sessions.push({
      id: session.id,
      ownerUserId: owner.id,
      status,
      label,
      createdAt: session.createdAt.getTime(),
    });
  }
  return { sessions, userIds: users.map((user) => user.id) };
}

function matches(session: SeededSession, filter: AdminSessionFilter): boolean {
  return (
    (filter.ownerUserId === undefined || session.ownerUserId === filter.ownerUserId) &&
    (filter.status === undefined || session.status === filter.status) &&
    (filter.createdFrom === undefined || session.createdAt >= filter.createdFrom.getTime()) &&
    (filter.createdBefore === undefined || session.createdAt < filter.createdBefore.getTime()) &&
    (filter.labelContains === undefined ||
      session.label.toLowerCase().includes(filter.labelContains.toLowerCase()))
  );
}

function newestFirst(left: SeededSession, right: SeededSession): number {
  if (left.createdAt !== right.createdAt) return right.createdAt - left.createdAt;
  return left.id < right.id ? 1 : left.id > right.id ? -1 : 0;
}

/** Keyset pagination: any page size and filter walks every matching row exactly once, in order. */
export function describePaginationContract(factory: TestDatabaseFactory): void {
  describe('keyset pagination', () => {
    const current = useTestDatabase(factory);

    it('walks every matching session exactly once, newest first, for any page size and filter', async () => {
      const database = current();
      const { sessions, userIds } = await seed(database);
      const start = Math.min(...sessions.map((session) => session.createdAt));
      const filterArbitrary: fc.Arbitrary<AdminSessionFilter> = fc.record(
        {
          ownerUserId: fc.constantFrom(...userIds),
          status: fc.constantFrom<SessionStatus>('open', 'closed'),
          createdFrom: fc.integer({ min: 0, max: 11 }).map((second) => new Date(start + second * 1000)),
          createdBefore: fc.integer({ min: 0, max: 11 }).map((second) => new Date(start + second * 1000)),
          labelContains: fc.constantFrom('report', 'ALPHA', 'a', '1'),
        },
        { requiredKeys: [] },
      );

      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 45 }),
          filterArbitrary,
          fc.boolean(),
          async (limit, filter, ownList) => {
            const expected = sessions
              .filter((session) => matches(session, filter))
              .sort(newestFirst)
              .map((session) => session.id);
            const seen: string[] = [];
            let cursor: string | null = null;
            for (let pages = 0; pages <= sessions.length + 1; pages += 1) {
              const page: Awaited<ReturnType<typeof database.repositories.sessions.listAllSessionsForAdmin>> =
                ownList && filter.ownerUserId !== undefined
                  ? await database.repositories.sessions.listForOwner(filter.ownerUserId, filter, {
                      limit,
                      cursor,
                    })
                  : await database.repositories.sessions.listAllSessionsForAdmin(filter, { limit, cursor });
              expect(page.items.length).toBeLessThanOrEqual(limit);
              seen.push(...page.items.map((session) => session.id));
              cursor = page.nextCursor;
              if (cursor === null) break;
              // A cursor is only handed out when the page was full.
              expect(page.items).toHaveLength(limit);
            }
            expect(cursor).toBeNull();
            expect(seen).toEqual(expected);
          },
        ),
        { numRuns: 40 },
      );
    });
  });
}
