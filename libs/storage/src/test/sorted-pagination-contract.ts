import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apiKeySortFields,
  auditSortFields,
  sessionSortFields,
  sortDirections,
  type SortDirection,
} from '@agentdesk/api-contract';
import type { Page, PageRequest } from '../pagination';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, useTestDatabase } from './suite-helpers';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

/** A row as the test knows it: its id and its value for each sort (null: none). */
interface Known {
  readonly id: string;
  readonly values: Readonly<Record<string, number | string | null>>;
}

// Few distinct values, so most rows tie with others and the id tie-breaker decides; mixed case and
// the empty label check that both engines compare text by code point ("B" < "a").
const labels = ['', 'a', 'B', 'b', 'a b', 'Z', 'é'];

/** Code point order, what both engines use (SQLite BINARY, PostgreSQL COLLATE "C"). */
function compareCodePoints(left: string, right: string): number {
  const a = [...left].map((character) => character.codePointAt(0)!);
  const b = [...right].map((character) => character.codePointAt(0)!);
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    if (a[index] !== b[index]) return a[index]! - b[index]!;
  }
  return a.length - b.length;
}

/** The order the API promises: NULLs last in both directions, then the value, then id, both in `direction`. */
function expectedOrder(rows: readonly Known[], field: string, direction: SortDirection): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows]
    .sort((left, right) => {
      const a = left.values[field]!;
      const b = right.values[field]!;
      if (a === null || b === null) {
        if (a !== b) return a === null ? 1 : -1;
      } else if (a !== b) {
        return sign * (typeof a === 'number' ? a - (b as number) : compareCodePoints(a, b as string));
      }
      return sign * (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);
    })
    .map((row) => row.id);
}

async function walk<Item extends { id: string }>(
  readPage: (page: PageRequest) => Promise<Page<Item>>,
  limit: number,
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<Item> = await readPage({ limit, cursor });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    seen.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return seen;
}

async function seedSessions(database: TestDatabase): Promise<Known[]> {
  const owner = await createUser(database, 'owner');
  const start = database.clock.now();
  const known: Known[] = [];
  for (let index = 0; index < 30; index += 1) {
    // Several sessions per millisecond: created and updated tie often.
    database.clock.set(start + Math.floor(index / 3));
    const label = labels[index % labels.length]!;
    const session = await database.repositories.sessions.create({ ownerUserId: owner.id, label });
    const updatedAt = start + (index % 4) * 10;
    const messageCount = index % 3;
    const inputTokens = (index * 7) % 5;
    const outputTokens = index % 2;
    await database.database.db
      .updateTable('sessions')
      .set({
        updated_at: updatedAt,
        message_count: messageCount,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
      })
      .where('id', '=', session.id)
      .execute();
    known.push({
      id: session.id,
      values: {
        created: session.createdAt.getTime(),
        updated: updatedAt,
        messages: messageCount,
        tokens: inputTokens + outputTokens,
        label,
      },
    });
  }
  return known;
}

async function seedApiKeys(database: TestDatabase): Promise<Known[]> {
  const start = database.clock.now();
  const known: Known[] = [];
  for (let index = 0; index < 24; index += 1) {
    database.clock.set(start + Math.floor(index / 3));
    const label = labels[index % labels.length]!;
    const key = await database.repositories.apiKeys.create({
      role: 'portal',
      portalId: 'p1',
      prefix: 'adk_p',
      secretHash: `hash-${index}`,
      label,
    });
    // A third never used: NULLs come last whichever way the list is sorted.
    const lastUsedAt = index % 3 === 0 ? null : start + (index % 4) * 100;
    await database.database.db
      .updateTable('api_keys')
      .set({ last_used_at: lastUsedAt })
      .where('id', '=', key.id)
      .execute();
    known.push({ id: key.id, values: { created: key.createdAt.getTime(), lastUsed: lastUsedAt, label } });
  }
  return known;
}

async function seedAudit(database: TestDatabase): Promise<Known[]> {
  const start = database.clock.now();
  const actions = ['admin.sessions.list', 'admin.audit.list', 'Admin.x', 'admin.usage.read'];
  const known: Known[] = [];
  for (let index = 0; index < 30; index += 1) {
    database.clock.set(start + Math.floor(index / 4));
    const action = actions[index % actions.length]!;
    const entry = await database.repositories.audit.append({ actorPrincipalId: 'someone', action });
    known.push({ id: entry.id, values: { at: entry.at.getTime(), action } });
  }
  return known;
}

const pageSizes = fc.integer({ min: 1, max: 35 });

/** Sorted keyset pagination: any sort, direction and page size returns every row once, in order. */
export function describeSortedPaginationContract(factory: TestDatabaseFactory): void {
  describe('sorted keyset pagination', () => {
    const current = useTestDatabase(factory);

    it('pages sessions by any sort and direction: every row exactly once, in order, ties by id', async () => {
      const database = current();
      const known = await seedSessions(database);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...sessionSortFields),
          fc.constantFrom(...sortDirections),
          pageSizes,
          async (field, direction, limit) => {
            const seen = await walk(
              (page) =>
                database.repositories.sessions.listAllSessionsForAdmin({}, page, { field, direction }),
              limit,
            );
            expect(seen).toEqual(expectedOrder(known, field, direction));
          },
        ),
        { numRuns: 40 },
      );
    });

    it('pages API keys by last use with NULLs last in both directions, and by created and label', async () => {
      const database = current();
      const known = await seedApiKeys(database);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...apiKeySortFields),
          fc.constantFrom(...sortDirections),
          pageSizes,
          async (field, direction, limit) => {
            const seen = await walk(
              (page) =>
                database.repositories.apiKeys.list({ includeRevoked: true }, page, { field, direction }),
              limit,
            );
            expect(seen).toEqual(expectedOrder(known, field, direction));
          },
        ),
        { numRuns: 30 },
      );
    });

    it('pages the audit log by time or action, and exports the same rows in the same order', async () => {
      const database = current();
      const known = await seedAudit(database);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...auditSortFields),
          fc.constantFrom(...sortDirections),
          pageSizes,
          async (field, direction, limit) => {
            const seen = await walk(
              (page) => database.repositories.audit.list({}, page, { field, direction }),
              limit,
            );
            expect(seen).toEqual(expectedOrder(known, field, direction));
          },
        ),
        { numRuns: 30 },
      );
      const exported: string[] = [];
      for await (const chunk of database.repositories.audit.export(
        {},
        { field: 'action', direction: 'asc' },
      )) {
        exported.push(...chunk.map((entry) => entry.id));
      }
      expect(exported).toEqual(expectedOrder(known, 'action', 'asc'));
    });

    it('refuses a cursor made for another sort or direction', async () => {
      const database = current();
      await seedSessions(database);
      const { sessions } = database.repositories;
      const byLabel = await sessions.listAllSessionsForAdmin(
        {},
        { limit: 2 },
        { field: 'label', direction: 'asc' },
      );
      expect(byLabel.nextCursor).not.toBeNull();
      await expectStorageError(
        sessions.listAllSessionsForAdmin(
          {},
          { limit: 2, cursor: byLabel.nextCursor },
          { field: 'created', direction: 'asc' },
        ),
        StorageErrorCode.InvalidCursor,
      );
      await expectStorageError(
        sessions.listAllSessionsForAdmin(
          {},
          { limit: 2, cursor: byLabel.nextCursor },
          { field: 'label', direction: 'desc' },
        ),
        StorageErrorCode.InvalidCursor,
      );
    });
  });
}
