import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../database-schema';
import { toUser, type User } from '../models/user';
import type { ExportChunks } from '../sorted-page';
import { whereUserMatches, type PeopleRowFilter } from './people-search';
import type { RepositoryContext } from './repository-context';

/**
 * Users an export reads per statement. Smaller than `EXPORT_CHUNK_SIZE`: each chunk's people are
 * then described by id (`IN` lists of this many ids, four statements), which stays cheap at 1,000.
 */
export const PEOPLE_EXPORT_CHUNK_SIZE = 1000;

/** The code point no text continues past: `prefix + it` bounds every text starting with `prefix`. */
const LAST_CODE_POINT = '\u{10FFFF}';

/** The directory's filters as an export takes them: the row filters and the search prefix. */
export interface PeopleExportFilter extends PeopleRowFilter {
  /** Case-insensitive prefix of the name, the email (single sign-on) or the external id. */
  readonly prefix?: string;
}

/**
 * Every user the directory's filters match, ordered by id, in keyset chunks (`id > last id`, one
 * range read of the primary key each), each chunk turned into what the directory shows by
 * `describe`. Unlike the directory's pages (newest first, or by the matched key when searching)
 * the order is the id's: one simple, stable keyset over every match, whatever the filters.
 */
export async function* exportPeople<Item>(
  context: RepositoryContext,
  filter: PeopleExportFilter,
  describe: (users: readonly User[]) => Promise<readonly Item[]>,
): ExportChunks<Item> {
  let after: string | null = null;
  for (;;) {
    const users = await readChunk(context, filter, after);
    if (users.length > 0) yield await describe(users);
    if (users.length < PEOPLE_EXPORT_CHUNK_SIZE) return;
    after = users[users.length - 1]!.id;
  }
}

async function readChunk(
  context: RepositoryContext,
  filter: PeopleExportFilter,
  after: string | null,
): Promise<User[]> {
  const { db } = context;
  let query = db
    .selectFrom('users')
    .selectAll('users')
    .where((eb) => whereUserMatches(eb, filter));
  const prefix = filter.prefix;
  if (prefix !== undefined && prefix.length > 0) {
    query = query.where((eb) => eb('users.id', 'in', idsWithPrefix(eb, prefix)));
  }
  if (after !== null) query = query.where('users.id', '>', after);
  const rows = await query.orderBy('users.id').limit(PEOPLE_EXPORT_CHUNK_SIZE).execute();
  return rows.map(toUser);
}

/** Ids whose name, external id or email starts with `prefix` (case-insensitive), each an index range. */
function idsWithPrefix(eb: ExpressionBuilder<Database, 'users'>, prefix: string) {
  const low = sql<string>`lower(${prefix})`;
  const high = sql<string>`lower(${prefix + LAST_CODE_POINT})`;
  return eb
    .selectFrom('users as named')
    .select('named.id')
    .where('named.name_key', '>=', low)
    .where('named.name_key', '<', high)
    .union(
      eb
        .selectFrom('users as external')
        .select('external.id')
        .where('external.external_key', '>=', low)
        .where('external.external_key', '<', high),
    )
    .union(
      eb
        .selectFrom('sso_identities')
        .select('sso_identities.user_id as id')
        .where('sso_identities.email_key', '>=', low)
        .where('sso_identities.email_key', '<', high),
    );
}
