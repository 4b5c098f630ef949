import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Single sign-on (OpenID Connect):
 *
 * - `sso_identities`: the person behind a user row, as their identity provider last described them —
 *   issuer and subject (the stable id: emails and names change), email, and the AgentDesk role the
 *   role mapping gave at the last sign-in (`none` when no mapped value; such a user opens nothing).
 *   A table of its own, not columns of `users`: portal end users and key holders have none of it.
 * - `sso_sign_in_codes`: the one-time code the API hands the console after a successful callback
 *   (in the redirect URL, so it must be short-lived and single-use); only its SHA-256 is stored.
 *   The console's server trades it for a console session; `used_at` makes a replay fail.
 */
export function ssoIdentities(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sso_identities')
        .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id'))
        .addColumn('issuer', 'text', (column) => column.notNull())
        .addColumn('subject', 'text', (column) => column.notNull())
        .addColumn('email', 'text')
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .execute();
      // Two concurrent first sign-ins of one person converge on one user.
      await db.schema
        .createIndex('sso_identities_issuer_subject_unique')
        .on('sso_identities')
        .columns(['issuer', 'subject'])
        .unique()
        .execute();
      await db.schema
        .createTable('sso_sign_in_codes')
        .addColumn('code_hash', 'text', (column) => column.primaryKey())
        .addColumn('user_id', 'text', (column) => column.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('expires_at', 'bigint', (column) => column.notNull())
        .addColumn('used_at', 'bigint')
        .addCheckConstraint('sso_sign_in_codes_expiry_after_creation', sql`expires_at > created_at`)
        .execute();
    },
  };
}
