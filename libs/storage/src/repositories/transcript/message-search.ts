import { sql, type Selectable } from 'kysely';
import type { MessagesTable } from '../../database-schema';
import { toMessage, type Message } from '../../models/message';
import {
  clampPageSize,
  decodeRowCursor,
  decodeTimeCursor,
  encodeRowCursor,
  encodeTimeCursor,
  toPage,
  type Page,
  type PageRequest,
} from '../../pagination';
import type { RepositoryContext } from '../repository-context';

/** The most words one search may combine (each one is an index lookup). */
export const MAX_SEARCH_TERMS = 16;

/**
 * The words of a search as both indexes see them: runs of letters and digits, lower-cased. Anything
 * else (quotes, operators, punctuation) only separates words, so a query can never be index syntax.
 */
export function searchTermsOf(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_SEARCH_TERMS);
}

/** A message whose text contains every word searched for, with the session owner to link to it. */
export interface MessageSearchHit {
  readonly message: Message;
  readonly ownerUserId: string;
}

type HitRow = Selectable<MessagesTable> & { owner_user_id: string };

/**
 * Full-text search over every user's message text (admin/viewer reads, audited by the caller):
 * messages containing every word of `query`, newest first, one keyset page at a time; no words
 * (only punctuation) finds nothing. Each engine answers from its own index (migration 0006).
 */
export async function searchMessages(
  context: RepositoryContext,
  query: string,
  page: PageRequest,
): Promise<Page<MessageSearchHit>> {
  const terms = searchTermsOf(query);
  const limit = clampPageSize(page.limit);
  const postgres = context.dialect === 'postgres';
  if (terms.length === 0) {
    // Validates the cursor even when there is nothing to search, so garbage is refused the same way.
    if (postgres) decodeTimeCursor(page.cursor);
    else decodeRowCursor(page.cursor);
    return { items: [], nextCursor: null };
  }
  return postgres ? searchPostgres(context, terms, limit, page) : searchSqlite(context, terms, limit, page);
}

/** GIN index on the generated `search_vector`; newest first by `(created_at, id)`. */
async function searchPostgres(
  context: RepositoryContext,
  terms: string[],
  limit: number,
  page: PageRequest,
): Promise<Page<MessageSearchHit>> {
  const after = decodeTimeCursor(page.cursor);
  const { rows } = await sql<HitRow>`
    select messages.*, sessions.owner_user_id
    from messages join sessions on sessions.id = messages.session_id
    where messages.search_vector @@ plainto_tsquery('simple'::regconfig, ${terms.join(' ')})
      ${after === null ? sql`` : sql`and (messages.created_at, messages.id) < (${after.createdAt}, ${after.id})`}
    order by messages.created_at desc, messages.id desc
    limit ${limit + 1}
  `.execute(context.db);
  return toPage(rows, limit, toHit, (row) => encodeTimeCursor({ createdAt: row.created_at, id: row.id }));
}

/** FTS5 contentless index; newest first by its row number (assigned in insertion order). */
async function searchSqlite(
  context: RepositoryContext,
  terms: string[],
  limit: number,
  page: PageRequest,
): Promise<Page<MessageSearchHit>> {
  const beforeRow = decodeRowCursor(page.cursor);
  // Every term quoted: a phrase of one word each, all required (FTS5's implicit AND).
  const match = terms.map((term) => `"${term}"`).join(' ');
  const { rows } = await sql<HitRow & { search_row: number }>`
    select messages.*, sessions.owner_user_id, message_search.rowid as search_row
    from message_search
    join message_search_rows on message_search_rows.rowid = message_search.rowid
    join messages on messages.id = message_search_rows.message_id
    join sessions on sessions.id = messages.session_id
    where message_search match ${match}
      ${beforeRow === null ? sql`` : sql`and message_search.rowid < ${beforeRow}`}
    order by message_search.rowid desc
    limit ${limit + 1}
  `.execute(context.db);
  return toPage(rows, limit, toHit, (row) => encodeRowCursor(row.search_row));
}

function toHit(row: HitRow): MessageSearchHit {
  return { message: toMessage(row), ownerUserId: row.owner_user_id };
}
