import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What an agent turn reads of a long session, made cheap:
 * - `messages.token_count`: the tokens a message costs the model, counted once by the writer (the
 *   API) when the content is stored, so a turn picks the history that fits its budget without
 *   recounting every message of the transcript. Rows written before this migration keep `null`
 *   and are counted by the reader when a turn needs them (lazily; storage has no tokenizer).
 * - A partial index on pending messages: taking a turn lease fails the leftovers of a dead turn,
 *   and without it that check scans every message of the session, on every turn.
 */
export function messageTokenCounts(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('messages').addColumn('token_count', 'integer').execute();
      await db.schema
        .createIndex('messages_pending_session')
        .on('messages')
        .column('session_id')
        .where(sql.ref('status'), '=', 'pending')
        .execute();
    },
  };
}
