import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * Prefix search (issue 20): a word of three letters or more finds the words it begins. SQLite's
 * FTS5 answers `"abc"*` by merging the match lists of every indexed word starting with `abc` — for
 * a short prefix, hundreds of lists, on every search. A prefix index of three characters keeps one
 * list per three-letter beginning, so the shortest prefixes (the ones that match the most words)
 * are one lookup; longer prefixes match few words. The contentless table cannot be altered: it is
 * made again with the option and filled from the messages (the triggers of 0006 keep writing to it
 * by name). PostgreSQL's GIN index answers `abc:*` from its sorted keys: nothing to change there.
 */
export function searchPrefixes(dialect: DatabaseDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return;
      await sql`drop table message_search`.execute(db);
      await sql`
        create virtual table message_search using fts5(
          body, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0', prefix = '3'
        )
      `.execute(db);
      await sql`
        insert into message_search (rowid, body)
        select message_search_rows.rowid,
               (select group_concat(json_extract(part.value, '$.text'), ' ')
                from json_each(messages.content) as part
                where json_extract(part.value, '$.type') = 'text')
        from message_search_rows join messages on messages.id = message_search_rows.message_id
      `.execute(db);
    },
  };
}
