import type { Kysely, Migration } from 'kysely';

/**
 * Indexes for two new questions:
 * - The admin session list filtered by portal or by model, newest first: keyset pagination walks
 *   `(portal_id | model, created_at, id)` backwards and stops after one page, instead of sorting
 *   every session of a big portal (1M sessions).
 * - "Has this principal already been audited reading this session with this action since T?",
 *   asked before every cross-user read to de-duplicate the records of a polling console: an
 *   equality prefix on (actor, session, action) and a range on `at` answer it from the index alone.
 */
export function sessionFiltersAuditDedup(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('sessions_portal_created_at_id')
        .on('sessions')
        .columns(['portal_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('sessions_model_created_at_id')
        .on('sessions')
        .columns(['model', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_log_actor_session_action_at')
        .on('audit_log')
        .columns(['actor_principal_id', 'session_id', 'action', 'at'])
        .execute();
    },
  };
}
