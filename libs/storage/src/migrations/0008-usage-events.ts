import type { Kysely, Migration } from 'kysely';

/**
 * Usage metering.
 *
 * `usage_events`: one row per model call outcome (a `/v1/chat/completions` call, one model call of
 * an agent turn, one lab target), written in batches by the API's usage meter. `id` is generated
 * at the call and is the idempotency key: the writer inserts with `ON CONFLICT (id) DO NOTHING`,
 * so a batch retried after an error whose commit did in fact land never counts twice.
 *
 * `usage_daily_totals`: the report's answer kept up to date. The same transaction that inserts a
 * batch adds the events it really inserted (`RETURNING` gives only new ids) to one row per
 * (grouping, UTC day, key), so the report reads days × keys rows instead of every event of the
 * range (1M events for a month → 240 rows by model). `group_key` is '' for "none" (no provider,
 * portal or end user): a primary key column cannot be null, and no model, provider, portal or user
 * id is empty.
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
      // Raw events by time: for reading back one period's calls (and pruning old ones later).
      await db.schema
        .createIndex('usage_events_occurred_at')
        .on('usage_events')
        .column('occurred_at')
        .execute();
      await db.schema
        .createTable('usage_daily_totals')
        .addColumn('grouping', 'text', (column) => column.notNull())
        .addColumn('day', 'text', (column) => column.notNull())
        .addColumn('group_key', 'text', (column) => column.notNull())
        .addColumn('input_tokens', 'bigint', (column) => column.notNull())
        .addColumn('output_tokens', 'bigint', (column) => column.notNull())
        .addColumn('thinking_tokens', 'bigint', (column) => column.notNull())
        .addColumn('cached_tokens', 'bigint', (column) => column.notNull())
        .addColumn('model_calls', 'bigint', (column) => column.notNull())
        // The report's range scan: one grouping, days in order, keys in order within a day.
        .addPrimaryKeyConstraint('usage_daily_totals_pkey', ['grouping', 'day', 'group_key'])
        .execute();
    },
  };
}
