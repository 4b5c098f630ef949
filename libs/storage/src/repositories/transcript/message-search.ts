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

/**
 * The most words one search may combine (each one is an index lookup): a longer query searches for
 * its first 16 distinct words and says which it left out, so a pasted paragraph stays fast.
 */
export const MAX_SEARCH_TERMS = 16;

/** The last word searched, this long or longer, also finds longer words it begins ("rout" finds "route"). */
export const PREFIX_MIN_LENGTH = 3;

/** The words of a query, lower-cased, each once, in order: runs of letters and digits. */
function wordsOf(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/**
 * The words of a search as both indexes see them: runs of letters and digits, lower-cased, at most
 * {@link MAX_SEARCH_TERMS}. Anything else (quotes, operators, punctuation) only separates words, so
 * a query can never be index syntax.
 */
export function searchTermsOf(query: string): string[] {
  return wordsOf(query).slice(0, MAX_SEARCH_TERMS);
}

/** The words of a query beyond {@link MAX_SEARCH_TERMS}, which the search leaves out. */
export function ignoredSearchTermsOf(query: string): string[] {
  return wordsOf(query).slice(MAX_SEARCH_TERMS);
}

/** One searched word: found whole, or (`prefix`) as the beginning of a word. */
export interface SearchPattern {
  readonly word: string;
  readonly prefix: boolean;
}

/**
 * How each searched word is found: the last one as a prefix when it has {@link PREFIX_MIN_LENGTH}
 * characters or more (the word being typed: "rout" finds "route"), the others whole. Whole words
 * keep PostgreSQL's GIN scan able to skip (a prefix makes it read every match of the word), so a
 * common word beside a rare one stays fast.
 */
export function searchPatternsOf(query: string): SearchPattern[] {
  const terms = searchTermsOf(query);
  return terms.map((word, index) => ({
    word,
    prefix: index === terms.length - 1 && word.length >= PREFIX_MIN_LENGTH,
  }));
}

/** Whether a word of a message (lower-cased) is what `pattern` finds. */
export function patternMatchesWord(pattern: SearchPattern, word: string): boolean {
  return pattern.prefix ? word.startsWith(pattern.word) : word === pattern.word;
}

/** Narrows a search: whose sessions, which role and model, when (`createdFrom` ≤ created < `createdBefore`). */
export interface MessageSearchFilters {
  readonly ownerUserId?: string;
  readonly role?: 'system' | 'user' | 'assistant' | 'tool';
  readonly model?: string;
  readonly createdFrom?: Date;
  readonly createdBefore?: Date;
}

/** A message whose text contains every word searched for, with the session owner to link to it. */
export interface MessageSearchHit {
  readonly message: Message;
  readonly ownerUserId: string;
}

type HitRow = Selectable<MessagesTable> & { owner_user_id: string };

/**
 * Full-text search over every user's message text (admin/viewer reads, audited by the caller):
 * messages containing every word of `query` (the last as a prefix, see
 * {@link searchPatternsOf}), narrowed by `filters`, newest first, one keyset page at a time; no words (only
 * punctuation) finds nothing. Each engine answers from its own index (migration 0006).
 */
export async function searchMessages(
  context: RepositoryContext,
  query: string,
  page: PageRequest,
  filters: MessageSearchFilters = {},
): Promise<Page<MessageSearchHit>> {
  const terms = searchPatternsOf(query);
  const limit = clampPageSize(page.limit);
  const postgres = context.dialect === 'postgres';
  if (terms.length === 0) {
    // Validates the cursor even when there is nothing to search, so garbage is refused the same way.
    if (postgres) decodeTimeCursor(page.cursor);
    else decodeRowCursor(page.cursor);
    return { items: [], nextCursor: null };
  }
  return postgres
    ? searchPostgres(context, terms, filters, limit, page)
    : searchSqlite(context, terms, filters, limit, page);
}

/** The filters as `and …` conditions on `messages` joined with `sessions`. */
function filterConditions(filters: MessageSearchFilters) {
  return sql.join(
    [
      sql``,
      ...(filters.ownerUserId === undefined ? [] : [sql`sessions.owner_user_id = ${filters.ownerUserId}`]),
      ...(filters.role === undefined ? [] : [sql`messages.role = ${filters.role}`]),
      ...(filters.model === undefined ? [] : [sql`messages.model = ${filters.model}`]),
      ...(filters.createdFrom === undefined
        ? []
        : [sql`messages.created_at >= ${filters.createdFrom.getTime()}`]),
      ...(filters.createdBefore === undefined
        ? []
        : [sql`messages.created_at < ${filters.createdBefore.getTime()}`]),
    ],
    sql` and `,
  );
}

/** GIN index on the generated `search_vector`; newest first by `(created_at, id)`. */
async function searchPostgres(
  context: RepositoryContext,
  terms: SearchPattern[],
  filters: MessageSearchFilters,
  limit: number,
  page: PageRequest,
): Promise<Page<MessageSearchHit>> {
  const after = decodeTimeCursor(page.cursor);
  // Terms are letters and digits only (searchTermsOf): `:*` and `&` are the only syntax, added here.
  const tsquery = terms.map((term) => (term.prefix ? `${term.word}:*` : term.word)).join(' & ');
  const { rows } = await sql<HitRow>`
    select messages.*, sessions.owner_user_id
    from messages join sessions on sessions.id = messages.session_id
    where messages.search_vector @@ to_tsquery('simple'::regconfig, ${tsquery})
      ${filterConditions(filters)}
      ${after === null ? sql`` : sql`and (messages.created_at, messages.id) < (${after.createdAt}, ${after.id})`}
    order by messages.created_at desc, messages.id desc
    limit ${limit + 1}
  `.execute(context.db);
  return toPage(rows, limit, toHit, (row) => encodeTimeCursor({ createdAt: row.created_at, id: row.id }));
}

/** FTS5 contentless index; newest first by its row number (assigned in insertion order). */
async function searchSqlite(
  context: RepositoryContext,
  terms: SearchPattern[],
  filters: MessageSearchFilters,
  limit: number,
  page: PageRequest,
): Promise<Page<MessageSearchHit>> {
  const beforeRow = decodeRowCursor(page.cursor);
  // Every term quoted (a phrase of one word; `*` after it: a prefix), all required (FTS5's implicit AND).
  const match = terms.map((term) => (term.prefix ? `"${term.word}"*` : `"${term.word}"`)).join(' ');
  const { rows } = await sql<HitRow & { search_row: number }>`
    select messages.*, sessions.owner_user_id, message_search.rowid as search_row
    from message_search
    join message_search_rows on message_search_rows.rowid = message_search.rowid
    join messages on messages.id = message_search_rows.message_id
    join sessions on sessions.id = messages.session_id
    where message_search match ${match}
      ${ownerRowsCondition(filters)}
      ${filterConditions(filters)}
      ${beforeRow === null ? sql`` : sql`and message_search.rowid < ${beforeRow}`}
    order by message_search.rowid desc
    limit ${limit + 1}
  `.execute(context.db);
  return toPage(rows, limit, toHit, (row) => encodeRowCursor(row.search_row));
}

/**
 * SQLite, one person's messages: the index's matches are kept when their row is one of that
 * person's, a set read once from the sessions index. The `+` keeps SQLite from handing the set to
 * FTS5 as rowid lookups, each of which would rebuild a prefix term's whole match list.
 */
function ownerRowsCondition(filters: MessageSearchFilters) {
  if (filters.ownerUserId === undefined) return sql``;
  return sql`and +message_search.rowid in (
    select message_search_rows.rowid
    from sessions
    join messages on messages.session_id = sessions.id
    join message_search_rows on message_search_rows.message_id = messages.id
    where sessions.owner_user_id = ${filters.ownerUserId}
  )`;
}

function toHit(row: HitRow): MessageSearchHit {
  return { message: toMessage(row), ownerUserId: row.owner_user_id };
}
