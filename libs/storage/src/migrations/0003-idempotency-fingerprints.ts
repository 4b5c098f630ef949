import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Idempotency keys remember the request they were first used with: a fingerprint (a hash of the
 * canonical request) lets a reuse with another body, session or mode be refused instead of
 * silently replaying the first turn. Keys are looked up across the owner's sessions, so they get
 * an index of their own (only rows that carry a key).
 */
export function idempotencyFingerprints(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messages').addColumn('idempotency_fingerprint', 'text').execute();
      await db.schema
        .createIndex('messages_idempotency_key')
        .on('messages')
        .column('idempotency_key')
        .where(sql.ref('idempotency_key'), 'is not', null)
        .execute();
    },
  };
}
