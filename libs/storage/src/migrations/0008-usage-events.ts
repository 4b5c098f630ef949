import type { Kysely, Migration } from 'kysely';

/** The group columns the usage report reads, each with its own covering index. */
const reportGroupColumns = ['model', 'provider', 'portal_id', 'end_user_id'] as const;

/**
 * `usage_events`: one row per model call outcome (a `/v1/chat/completions` call, one model call
 * of an agent turn, one lab target), written in batches by the API's usage meter.
 *
 * - `id` is generated at the call and is the idempotency key: the writer inserts with
 *   `ON CONFLICT (id) DO NOTHING`, so a batch retried after an error whose commit did in fact
 *   land never counts twice.
 * - `day` (UTC `YYYY-MM-DD`) is stored rather than computed from `occurred_at` in the report: the
 *   report groups by it, and an index can only serve a stored column on both engines.
 * - One covering index per group column `(day, column, tokens…)`: the report over a date range is
 *   an index-only range scan already in group order (no table lookups, no sort).
 *
 * No index on `messages(created_at)`: the usage report no longer reads messages, the sessions
 * filters read `sessions.created_at` (indexed since 0001/0007), and PostgreSQL's search already
 * has `messages(created_at, id)` from 0006.
 */
export function usageEvents(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('usage_events')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('occurred_at', 'bigint', (column) => column.notNull())
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('source', 'text', (column) => column.notNull())
        .addColumn('model', 'text', (column) => column.notNull())
        .addColumn('provider', 'text')
        .addColumn('api_key_id', 'text')
        .addColumn('portal_id', 'text')
        .addColumn('end_user_id', 'text')
        .addColumn('input_tokens', 'bigint', (column) => column.notNull())
        .addColumn('output_tokens', 'bigint', (column) => column.notNull())
        .addColumn('thinking_tokens', 'bigint', (column) => column.notNull())
        .addColumn('cached_tokens', 'bigint', (column) => column.notNull())
        .addColumn('latency_ms', 'integer', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .execute();
      for (const column of reportGroupColumns) {
        await db.schema
          .createIndex(`usage_events_day_${column}`)
          .on('usage_events')
          .columns(['day', column, 'input_tokens', 'output_tokens', 'thinking_tokens', 'cached_tokens'])
          .execute();
      }
    },
  };
}
