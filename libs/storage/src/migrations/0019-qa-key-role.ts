import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

const before = "role in ('user', 'portal', 'viewer', 'admin')";
const after = "role in ('user', 'portal', 'viewer', 'qa', 'admin')";

/**
 * API keys may carry the `qa` role (runs QA suites, reads results, no admin rights): the role check
 * of 0001 is widened. PostgreSQL swaps the constraint. SQLite cannot alter a CHECK, so the table is
 * rebuilt the documented way (sqlite.org/lang_altertable.html, "other kinds of table schema
 * changes"): with foreign keys off (Kysely runs SQLite migrations outside a transaction, so the
 * pragma takes effect), a copy is created from the stored `CREATE TABLE` text with only the role
 * list changed — every column added since stays as it is — filled, swapped in, its indexes
 * re-created from their stored text, and the foreign keys checked before they are turned back on.
 */
export function qaKeyRole(dialect: DatabaseDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`alter table api_keys drop constraint api_keys_role_valid`.execute(db);
        await sql.raw(`alter table api_keys add constraint api_keys_role_valid check (${after})`).execute(db);
        return;
      }
      const table = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'table' and name = 'api_keys'`.execute(db);
      const createText = table.rows[0]?.sql;
      if (createText === undefined || !createText.includes(before))
        throw new Error('0019-qa-key-role: the api_keys table is not as 0001 created it');
      const indexes = await sql<{
        sql: string;
      }>`select sql from sqlite_master where type = 'index' and tbl_name = 'api_keys' and sql is not null`.execute(
        db,
      );
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await sql
          .raw(createText.replace('"api_keys"', '"api_keys_with_qa"').replace(before, after))
          .execute(db);
        await sql`insert into api_keys_with_qa select * from api_keys`.execute(db);
        await sql`drop table api_keys`.execute(db);
        await sql`alter table api_keys_with_qa rename to api_keys`.execute(db);
        for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0) throw new Error('0019-qa-key-role: foreign keys broken by the rebuild');
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}
