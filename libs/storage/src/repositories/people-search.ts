import type { Role } from '@agentdesk/authz';
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Database, UsersTable } from '../database-schema';
import { toUser, type User } from '../models/user';
import {
  clampPageSize,
  decodeSortCursor,
  encodeSortCursor,
  toPage,
  type Page,
  type PageRequest,
} from '../pagination';
import { StorageError, StorageErrorCode } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** The filters a directory page combines with its search (each runs on `users`). */
export interface PeopleRowFilter {
  readonly portalId?: string;
  /** People holding this role: an unrevoked key of it, or single sign-on mapped to it. */
  readonly role?: Role;
}

/** The sort a search cursor is made for: the matched key, ascending, then the id. */
const SEARCH_SORT = { sort: 'match', direction: 'asc', kind: 'text' } as const;

/** The code point no text continues past: `prefix + it` bounds every text starting with `prefix`. */
const LAST_CODE_POINT = '\u{10FFFF}';

/** `users` ⨝ `sso_identities` as `users.id in (…)` filters: portal, role. */
export function whereUserMatches(
  eb: ExpressionBuilder<Database, 'users'>,
  filter: PeopleRowFilter,
): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.portalId !== undefined) conditions.push(eb('users.portal_id', '=', filter.portalId));
  const role = filter.role;
  if (role !== undefined) {
    conditions.push(
      eb.or([
        eb(
          'users.id',
          'in',
          eb
            .selectFrom('api_keys')
            .select('owner_user_id')
            .where('role', '=', role)
            .where('revoked_at', 'is', null)
            .where('owner_user_id', 'is not', null)
            .$narrowType<{ owner_user_id: string }>(),
        ),
        // Single sign-on never maps to `portal` (a portal is a key, not a person).
        ...(role === 'portal'
          ? []
          : [
              eb(
                'users.id',
                'in',
                eb.selectFrom('sso_identities').select('user_id').where('role', '=', role),
              ),
            ]),
      ]),
    );
  }
  return eb.and(conditions);
}

type Stream = 'name' | 'external' | 'email';
const streams: readonly Stream[] = ['name', 'external', 'email'];

type SearchRow = Selectable<UsersTable> & {
  stream: Stream;
  match_key: string;
  email_key: string | null;
  /** `lower(prefix)` as both engines fold it (Unicode, one code point at a time): what the keys start with. */
  prefix_key: string;
};

/** Code point order (the keys' collation: "C" on PostgreSQL, BINARY on SQLite), then the id. */
function compareKeys(a: { key: string; id: string }, b: { key: string; id: string }): number {
  if (a.key !== b.key) return codePointCompare(a.key, b.key);
  return codePointCompare(a.id, b.id);
}

function codePointCompare(a: string, b: string): number {
  // UTF-16 order differs from code point order only for surrogates against U+E000–U+FFFF.
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/**
 * One page of the people whose name, external id or email starts with `prefix` (case-insensitive),
 * in the order of the key that matched (a person matched twice is placed by the smaller key), then
 * by id; the cursor carries the last `(key, id)`, so paging is stable.
 *
 * Three index range scans on `(key, id)`, each `limit + 1` rows after the cursor, in one statement
 * (`UNION ALL`), merged here: nothing reads or sorts every match, so a prefix matching 10,000 people
 * costs what a narrow one does. A row whose person has a smaller matching key elsewhere is that
 * person's later duplicate and is dropped; should the drops leave fewer rows than a page within what
 * every scan has surely covered, the scans are read again, further (rare: it takes many people
 * matching on two fields).
 */
export async function searchPeople(
  context: RepositoryContext,
  prefix: string,
  filter: PeopleRowFilter,
  page: PageRequest,
): Promise<Page<User>> {
  const limit = clampPageSize(page.limit);
  const position = decodeSortCursor(page.cursor, SEARCH_SORT);
  if (position !== null && typeof position.value !== 'string') {
    throw new StorageError(StorageErrorCode.InvalidCursor, 'cursor', 'The pagination cursor is not valid');
  }
  const after = position === null ? null : { key: position.value as string, id: position.id };
  let scanLimit = limit + 1;
  for (;;) {
    const rows = await scan(context, prefix, filter, after, scanLimit);
    // How far every scan has certainly read: the last row of each scan that hit its limit.
    let bound: { key: string; id: string } | null = null;
    for (const stream of streams) {
      const ofStream = rows.filter((row) => row.stream === stream);
      const last = ofStream.at(-1);
      if (ofStream.length < scanLimit || last === undefined) continue;
      const end = { key: last.match_key, id: last.id };
      if (bound === null || compareKeys(end, bound) < 0) bound = end;
    }
    const seen = new Set<string>();
    const kept = rows
      .filter((row) => smallestMatchingKey(row) === row.match_key)
      .filter((row) => bound === null || compareKeys({ key: row.match_key, id: row.id }, bound) <= 0)
      .sort((a, b) => compareKeys({ key: a.match_key, id: a.id }, { key: b.match_key, id: b.id }))
      .filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));
    if (bound === null || kept.length > limit) {
      return toPage(kept, limit, toUser, (row) =>
        encodeSortCursor({ ...SEARCH_SORT, value: row.match_key, id: row.id }),
      );
    }
    scanLimit *= 4;
  }
}

/** The person's smallest key that starts with the (lower-cased) prefix: where they are listed. */
function smallestMatchingKey(row: SearchRow): string | undefined {
  const keys = [row.name_key, row.external_key, row.email_key].filter(
    (key): key is string => typeof key === 'string' && key.startsWith(row.prefix_key),
  );
  return keys.sort(codePointCompare)[0];
}

async function scan(
  context: RepositoryContext,
  prefix: string,
  filter: PeopleRowFilter,
  after: { key: string; id: string } | null,
  scanLimit: number,
): Promise<SearchRow[]> {
  const { db } = context;
  const low = sql<string>`lower(${prefix})`;
  const high = sql<string>`lower(${prefix + LAST_CODE_POINT})`;
  const byUsersKey = (stream: 'name' | 'external') => {
    const column = stream === 'name' ? 'users.name_key' : 'users.external_key';
    let query = db
      .selectFrom('users')
      .leftJoin('sso_identities', 'sso_identities.user_id', 'users.id')
      .selectAll('users')
      .select([
        sql<Stream>`${sql.lit(stream)}`.as('stream'),
        sql<string>`${sql.ref(column)}`.as('match_key'),
        'sso_identities.email_key as email_key',
        low.as('prefix_key'),
      ])
      .where(column, '>=', low)
      .where(column, '<', high)
      .where((eb) => whereUserMatches(eb as unknown as ExpressionBuilder<Database, 'users'>, filter));
    if (after !== null)
      query = query.where((eb) => eb(eb.refTuple(column, 'users.id'), '>', eb.tuple(after.key, after.id)));
    return query.orderBy(column).orderBy('users.id').limit(scanLimit);
  };
  let byEmail = db
    .selectFrom('sso_identities')
    .innerJoin('users', 'users.id', 'sso_identities.user_id')
    .selectAll('users')
    .select([
      sql<Stream>`${sql.lit('email')}`.as('stream'),
      sql<string>`${sql.ref('sso_identities.email_key')}`.as('match_key'),
      'sso_identities.email_key as email_key',
      low.as('prefix_key'),
    ])
    .where('sso_identities.email_key', '>=', low)
    .where('sso_identities.email_key', '<', high)
    .where((eb) => whereUserMatches(eb as unknown as ExpressionBuilder<Database, 'users'>, filter));
  if (after !== null)
    byEmail = byEmail.where((eb) =>
      eb(
        eb.refTuple('sso_identities.email_key', 'sso_identities.user_id'),
        '>',
        eb.tuple(after.key, after.id),
      ),
    );
  const emailScan = byEmail
    .orderBy('sso_identities.email_key')
    .orderBy('sso_identities.user_id')
    .limit(scanLimit);
  // Each scan keeps its own ORDER BY … LIMIT inside a subquery (a compound SELECT allows only one).
  const rows = await db
    .selectFrom(byUsersKey('name').as('by_name'))
    .selectAll()
    .unionAll(db.selectFrom(byUsersKey('external').as('by_external')).selectAll())
    .unionAll(db.selectFrom(emailScan.as('by_email')).selectAll())
    .execute();
  return rows as SearchRow[];
}
