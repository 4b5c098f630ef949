import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * Full-text search over message text, in each engine's own index (never a scan of `messages`).
 *
 * The indexed text is the `text` of the message's `{ type: 'text' }` content parts, joined by spaces;
 * tool calls, ids and part types are not indexed. Both engines tokenize into lower-cased words
 * without stemming (PostgreSQL `simple`, SQLite `unicode61`), so one query finds the same messages.
 */
export function messageSearch(dialect: DatabaseDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') await upPostgres(db);
      else await upSqlite(db);
    },
  };
}

/**
 * A generated `tsvector` column (kept in step by PostgreSQL on every insert and update, so no
 * write path can forget it) and a GIN index on it.
 */
async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table messages add column search_vector tsvector generated always as (
      jsonb_to_tsvector(
        'simple'::regconfig,
        jsonb_path_query_array(content, '$[*] ? (@.type == "text").text'),
        '["string"]'
      )
    ) stored
  `.execute(db);
  await sql`create index messages_search_vector on messages using gin (search_vector)`.execute(db);
  // Results come newest first: for a common word the planner walks this index backwards and stops
  // after one page, instead of sorting every match from the GIN index.
  await sql`create index messages_created_at_id on messages (created_at, id)`.execute(db);
}

/** The text of a message's text parts, as SQLite computes it inside the triggers. */
const sqliteMessageText = (row: 'new' | 'messages') =>
  sql.raw(`(select group_concat(json_extract(part.value, '$.text'), ' ')
     from json_each(${row}.content) as part
     where json_extract(part.value, '$.type') = 'text')`);

/**
 * A contentless FTS5 table (the text is not stored twice) kept in sync by triggers. Its rowid
 * comes from `message_search_rows`, whose INTEGER PRIMARY KEY is stable: the implicit rowid of
 * `messages` (a text primary key) may be renumbered by VACUUM and cannot be the link. No foreign
 * key: the delete trigger needs the link row while it removes the indexed words.
 */
async function upSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table message_search_rows (
      rowid integer primary key,
      message_id text not null unique
    )
  `.execute(db);
  await sql`
    create virtual table message_search using fts5(
      body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0'
    )
  `.execute(db);
  await sql`
    insert into message_search_rows (message_id) select id from messages order by created_at, id
  `.execute(db);
  await sql`
    insert into message_search (rowid, body)
    select message_search_rows.rowid, ${sqliteMessageText('messages')}
    from message_search_rows join messages on messages.id = message_search_rows.message_id
  `.execute(db);
  await sql`
    create trigger messages_search_insert after insert on messages begin
      insert into message_search_rows (message_id) values (new.id);
      insert into message_search (rowid, body)
        values ((select rowid from message_search_rows where message_id = new.id), ${sqliteMessageText('new')});
    end
  `.execute(db);
  // Content changes when a pending message finishes: the old words go, the new ones come in.
  await sql`
    create trigger messages_search_update after update of content on messages begin
      delete from message_search where rowid = (select rowid from message_search_rows where message_id = old.id);
      insert into message_search (rowid, body)
        values ((select rowid from message_search_rows where message_id = new.id), ${sqliteMessageText('new')});
    end
  `.execute(db);
  await sql`
    create trigger messages_search_delete after delete on messages begin
      delete from message_search where rowid = (select rowid from message_search_rows where message_id = old.id);
      delete from message_search_rows where message_id = old.id;
    end
  `.execute(db);
}
