import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * The people directory (users page, name search, a user's page).
 *
 * - `users.name_key`, `users.external_key`, `sso_identities.email_key`: the lower-cased name,
 *   external id and email, as generated columns (the engine keeps them in step on every write, so no
 *   write path can forget them), each with a B-tree index. A prefix search is a range on the key
 *   (`key >= lower(prefix) and key < lower(prefix || U+10FFFF)`): the same statement on both
 *   engines, an index range scan on both. PostgreSQL compares the keys with the "C" collation (byte
 *   order, which is code point order in UTF-8), so the range is exactly "starts with"; SQLite's
 *   default BINARY collation is the same. Each index is on `(key, id)`: a search is listed in key
 *   order then by id, so each range is read in index order and stops after a page, and the paging
 *   cursor `(key, id) > (…)` is a seek in the same index. SQLite's `lower()` folds ASCII only, PostgreSQL's every
 *   letter: on SQLite "élodie" does not find "Élodie" (as the sessions' label filter already does).
 *   SQLite cannot add a STORED generated column to an existing table, so its keys are VIRTUAL
 *   (computed on read) and indexed; the index holds the value.
 * - `sessions(owner_user_id, updated_at)`: a user's session count and last activity
 *   (`max(updated_at)`, which every turn moves) from the index alone, for the page's users only —
 *   no counter kept on `users`, so the turn's writes stay as they are.
 * - `api_keys(owner_user_id)`: a user's role (their unrevoked keys) for the page's users.
 * - `usage_daily_totals(grouping, group_key, day)`: one user's days of usage as one short range
 *   (the primary key is by day first: a month of every user's totals otherwise).
 */
export function people(dialect: DatabaseDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const keyColumn = (source: string) =>
        dialect === 'postgres'
          ? sql.raw(`text collate "C" generated always as (lower(${source})) stored`)
          : sql.raw(`text generated always as (lower(${source})) virtual`);
      await sql`alter table users add column name_key ${keyColumn('display_name')}`.execute(db);
      await sql`alter table users add column external_key ${keyColumn('external_id')}`.execute(db);
      await sql`alter table sso_identities add column email_key ${keyColumn('email')}`.execute(db);
      await db.schema.createIndex('users_name_key_id').on('users').columns(['name_key', 'id']).execute();
      await db.schema
        .createIndex('users_external_key_id')
        .on('users')
        .columns(['external_key', 'id'])
        .execute();
      await db.schema
        .createIndex('sso_identities_email_key_user_id')
        .on('sso_identities')
        .columns(['email_key', 'user_id'])
        .execute();
      await db.schema
        .createIndex('sessions_owner_updated_at')
        .on('sessions')
        .columns(['owner_user_id', 'updated_at'])
        .execute();
      await db.schema.createIndex('api_keys_owner_user_id').on('api_keys').column('owner_user_id').execute();
      await db.schema
        .createIndex('usage_daily_totals_group_key_day')
        .on('usage_daily_totals')
        .columns(['grouping', 'group_key', 'day'])
        .execute();
    },
  };
}
