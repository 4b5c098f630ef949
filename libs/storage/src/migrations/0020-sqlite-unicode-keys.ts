import { sql, type Kysely, type Migration } from 'kysely';
import type { DatabaseDialect } from '../database-dialect';

/**
 * SQLite only: the people keys (`users.name_key`, `users.external_key`, `sso_identities.email_key`)
 * are `lower()` of their column, and SQLite's `lower()` is now the Unicode one of `sqlite-dialect.ts`
 * (as PostgreSQL's). Their indexes still hold what the ASCII-only `lower()` computed when each row
 * was written: rebuilt here, so "Élodie" is found by "élodie" in an existing database too.
 */
export function sqliteUnicodeKeys(dialect: DatabaseDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return;
      for (const index of ['users_name_key_id', 'users_external_key_id', 'sso_identities_email_key_user_id'])
        await sql`reindex ${sql.id(index)}`.execute(db);
    },
  };
}
