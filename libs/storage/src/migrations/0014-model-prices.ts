import { sql, type Kysely, type Migration } from 'kysely';
import { defaultModelPrices, DEFAULT_PRICES_TAKEN_AT } from './default-model-prices';

/**
 * What model calls cost.
 *
 * - `model_prices`: one row per price version of one model (exact model name, no prefix rules).
 *   Prices are integer micro-dollars per million tokens (an exact integer: $2.50 / 1M tokens is
 *   2 500 000), for uncached input, cached input (cache reads), output and thinking. A version is
 *   never updated or deleted: a price change is a new row, and the price in effect at time t is the
 *   model's row with the latest `effective_from` ≤ t. `created_by` is the principal who added it
 *   (`seed` for the defaults below). Two versions of one model never share an `effective_from`.
 * - `usage_events.cost_micros` / `price_id`: the call's cost in micro-dollars, computed when the
 *   event is written with the version in effect at the call, so a later price leaves it as it was.
 *   Null cost: no price for the model (unknown, never 0).
 * - `usage_daily_totals.cost_micros` / `unpriced_calls`: the priced calls' cost summed and the
 *   calls without a price counted, kept in the same transaction as the events. Calls metered before
 *   this migration had no price: their rows count every call as unpriced.
 * - `sessions.cost_micros` / `unpriced_calls`: the same per session, added where the session's
 *   token totals are added (a finished answer). Answers from before count as unpriced.
 *
 * The defaults are the list prices the providers documented on the date in
 * `DEFAULT_PRICES_TAKEN_AT`, in effect from the beginning (`effective_from` 0) so that every call
 * metered from now on has one; admins add newer versions.
 */
export function modelPrices(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('model_prices')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('model', 'text', (column) => column.notNull())
        .addColumn('provider', 'text', (column) => column.notNull())
        .addColumn('input_micros_per_million', 'bigint', (column) => column.notNull())
        .addColumn('cached_input_micros_per_million', 'bigint', (column) => column.notNull())
        .addColumn('output_micros_per_million', 'bigint', (column) => column.notNull())
        .addColumn('thinking_micros_per_million', 'bigint', (column) => column.notNull())
        .addColumn('effective_from', 'bigint', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('created_by', 'text', (column) => column.notNull())
        .addCheckConstraint(
          'model_prices_not_negative',
          sql`input_micros_per_million >= 0 and cached_input_micros_per_million >= 0 and output_micros_per_million >= 0 and thinking_micros_per_million >= 0 and effective_from >= 0`,
        )
        .execute();
      // The version in effect: one model, effective_from descending; and no two at the same instant.
      await db.schema
        .createIndex('model_prices_model_effective_from')
        .on('model_prices')
        .columns(['model', 'effective_from'])
        .unique()
        .execute();
      if (defaultModelPrices.length > 0) {
        await (db as Kysely<Record<string, Record<string, unknown>>>)
          .insertInto('model_prices')
          .values(
            defaultModelPrices.map((price) => ({
              id: `seed-${price.model}`,
              model: price.model,
              provider: price.provider,
              input_micros_per_million: price.input,
              cached_input_micros_per_million: price.cachedInput,
              output_micros_per_million: price.output,
              thinking_micros_per_million: price.thinking,
              effective_from: 0,
              created_at: DEFAULT_PRICES_TAKEN_AT,
              created_by: 'seed',
            })),
          )
          .execute();
      }

      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema.alterTable('usage_events').addColumn('cost_micros', 'bigint').execute();
      await db.schema.alterTable('usage_events').addColumn('price_id', 'text').execute();
      await db.schema
        .alterTable('usage_daily_totals')
        .addColumn('cost_micros', 'bigint', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('usage_daily_totals')
        .addColumn('unpriced_calls', 'bigint', (column) => column.notNull().defaultTo(0))
        .execute();
      await sql`update usage_daily_totals set unpriced_calls = model_calls`.execute(db);
      await db.schema
        .alterTable('sessions')
        .addColumn('cost_micros', 'bigint', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('unpriced_calls', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await sql`update sessions set unpriced_calls = (select count(*) from messages where messages.session_id = sessions.id and messages.role = 'assistant' and messages.input_tokens is not null) where exists (select 1 from messages where messages.session_id = sessions.id and messages.input_tokens is not null)`.execute(
        db,
      );
    },
  };
}
