import type { Kysely, Migration } from 'kysely';

/**
 * Exports read `usage_events` in keyset chunks ordered by `(occurred_at, id)`: with both columns
 * in one index each chunk is a range read that starts where the last one ended, on both engines
 * (the `occurred_at` index of 0008 alone leaves the id order of equal times to a sort).
 */
export function exportIndexes(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('usage_events_occurred_at_id')
        .on('usage_events')
        .columns(['occurred_at', 'id'])
        .execute();
    },
  };
}
