import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Console sessions: one row per console sign-in, kept on the server so that signing out, revoking
 * the key it was made with or an admin ending it takes effect on the very next request (a sealed
 * cookie alone cannot be taken back once copied).
 *
 * - `token_hash` is the SHA-256 of the random token the console's cookie carries; the token itself
 *   is never stored. `id` is a separate public id (admins end sessions by it; it opens nothing).
 * - `way_in` is how the person signed in (`api-key`, `oidc`); `api_key_id` is the key of an
 *   `api-key` sign-in. No CHECK on the vocabularies (ways in, end reasons): SQLite cannot change a
 *   CHECK without rebuilding the table, and the next way in should not need that.
 * - Times are epoch milliseconds; `idle_expires_at` slides with use, never past `absolute_expires_at`.
 * - An ended session keeps its row (`ended_at`, `end_reason`) so the admin list can show it.
 */
export function consoleSessions(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('console_sessions')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('token_hash', 'text', (column) => column.notNull())
        .addColumn('user_id', 'text', (column) => column.notNull().references('users.id'))
        .addColumn('api_key_id', 'text', (column) => column.references('api_keys.id'))
        .addColumn('way_in', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('last_seen_at', 'bigint', (column) => column.notNull())
        .addColumn('idle_expires_at', 'bigint', (column) => column.notNull())
        .addColumn('absolute_expires_at', 'bigint', (column) => column.notNull())
        .addColumn('client_address', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('ended_at', 'bigint')
        .addColumn('end_reason', 'text')
        // A key sign-in always names its key (revoking the key must find its sessions).
        .addCheckConstraint(
          'console_sessions_key_of_key_sign_in',
          sql`way_in <> 'api-key' or api_key_id is not null`,
        )
        .addCheckConstraint(
          'console_sessions_end_has_reason',
          sql`(ended_at is null and end_reason is null) or (ended_at is not null and end_reason is not null)`,
        )
        .execute();
      // The lookup of every console request.
      await db.schema
        .createIndex('console_sessions_token_hash_unique')
        .on('console_sessions')
        .column('token_hash')
        .unique()
        .execute();
      // One user's sessions, newest first (the admin list, "sign out everywhere").
      await db.schema
        .createIndex('console_sessions_user_created_at_id')
        .on('console_sessions')
        .columns(['user_id', 'created_at', 'id'])
        .execute();
      // Everyone's sessions, newest first (the admin list without a user).
      await db.schema
        .createIndex('console_sessions_created_at_id')
        .on('console_sessions')
        .columns(['created_at', 'id'])
        .execute();
      // Revoking a key ends the open sessions made with it.
      await db.schema
        .createIndex('console_sessions_open_api_key_id')
        .on('console_sessions')
        .column('api_key_id')
        .where(sql.ref('ended_at'), 'is', null)
        .execute();
    },
  };
}
