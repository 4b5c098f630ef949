import type { Kysely, Migration } from 'kysely';

/**
 * Every change is audited, refused and failed attempts included, so a record says more than who
 * read what:
 * - `actor_kind`: what `actor_principal_id` names — a `user`, a `portal` (its id is the portal's,
 *   free text an admin chose, so it could look like anything), the dev-mode `anonymous` user,
 *   `unauthenticated` (a refused sign-in: nobody was recognised) or the `host` (a command run on
 *   the server, e.g. `npm run admin-key`). Earlier records were all written for users.
 * - `way_in`: how the actor authenticated (`api-key`, `console-session`, `host-command`; `oidc`
 *   next). Null on records from before this migration.
 * - `outcome`: `succeeded`, `refused` (a 4xx: not allowed, invalid, not found, a failed sign-in) or
 *   `failed` (the server failed). Earlier records were all of things that happened.
 * - `target_kind`, `target_id`: what was changed (an `api-key` and its id, a `lab-run`, …), next
 *   to the user (`target_user_id`) and session (`session_id`) it concerns.
 * No CHECK on the vocabularies: SQLite cannot change a CHECK without rebuilding the table, and the
 * next way in or target kind should not need that. Both defaults are constants, so adding the
 * columns rewrites no row on PostgreSQL.
 */
export function auditOutcomesAndTargets(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema
        .alterTable('audit_log')
        .addColumn('actor_kind', 'text', (column) => column.notNull().defaultTo('user'))
        .execute();
      await db.schema.alterTable('audit_log').addColumn('way_in', 'text').execute();
      await db.schema
        .alterTable('audit_log')
        .addColumn('outcome', 'text', (column) => column.notNull().defaultTo('succeeded'))
        .execute();
      await db.schema.alterTable('audit_log').addColumn('target_kind', 'text').execute();
      await db.schema.alterTable('audit_log').addColumn('target_id', 'text').execute();
      // "Every refused attempt, newest first": a few rows among many successes, found without a scan.
      await db.schema
        .createIndex('audit_log_outcome_at_id')
        .on('audit_log')
        .columns(['outcome', 'at', 'id'])
        .execute();
    },
  };
}
