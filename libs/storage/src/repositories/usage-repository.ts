import type { Insertable } from 'kysely';
import type { UsageDailyTotalsTable, UsageEventsTable } from '../database-schema';
import type { RepositoryContext } from './repository-context';
import type { ExportChunks } from '../sorted-page';
import { exportUsageEvents, type UsageEvent, type UsageEventFilter } from './usage-events-export';

/** What the daily usage can be grouped by. */
export type UsageGroupColumn = 'model' | 'provider' | 'portal' | 'user';

/** Where a metered model call came from. */
export type UsageSource = UsageEventsTable['source'];

/** How a metered model call ended. */
export type UsageStatus = UsageEventsTable['status'];

/** A day range, both ends inclusive, as UTC `YYYY-MM-DD` dates. */
export interface UsageDayRange {
  readonly fromDay: string;
  readonly toDay: string;
}

/** Tokens of every model call of one UTC day with one group key (null: no provider / portal / user). */
export interface DailyUsageRow {
  readonly day: string;
  readonly key: string | null;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly thinkingTokens: number;
  readonly cachedTokens: number;
  readonly modelCalls: number;
  /** Micro-dollars of the calls that had a price. */
  readonly costMicros: number;
  /** Calls without a price: their cost is unknown (not in `costMicros`). */
  readonly unpricedCalls: number;
}

/** One model call outcome to store. `id` was generated at the call and makes the write idempotent. */
export interface NewUsageEvent {
  readonly id: string;
  /** Epoch milliseconds; the UTC day is derived from it. */
  readonly occurredAt: number;
  readonly source: UsageSource;
  readonly model: string;
  readonly provider: string | null;
  readonly apiKeyId: string | null;
  readonly portalId: string | null;
  readonly endUserId: string | null;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly thinkingTokens: number;
  readonly cachedTokens: number;
  readonly latencyMs: number;
  readonly status: UsageStatus;
  /** Micro-dollars, computed with `priceId`'s version when the event was made; null: no price. */
  readonly costMicros: number | null;
  readonly priceId: string | null;
}

const groupings: readonly UsageGroupColumn[] = ['model', 'provider', 'portal', 'user'];

/** The key of an event in one grouping ('' for none: see migration 0008). */
function groupKeyOf(event: NewUsageEvent, grouping: UsageGroupColumn): string {
  switch (grouping) {
    case 'model':
      return event.model;
    case 'provider':
      return event.provider ?? '';
    case 'portal':
      return event.portalId ?? '';
    case 'user':
      return event.endUserId ?? '';
  }
}

type DailyTotal = Insertable<UsageDailyTotalsTable> & { cost_micros: number; unpriced_calls: number };

/**
 * The events summed per grouping × day × key, sorted so that concurrent writers (replicas) lock
 * the same rows in the same order and cannot deadlock each other.
 */
function dailyTotalsOf(events: readonly NewUsageEvent[]): DailyTotal[] {
  const totals = new Map<string, DailyTotal>();
  for (const event of events) {
    const day = utcDayOf(event.occurredAt);
    for (const grouping of groupings) {
      const groupKey = groupKeyOf(event, grouping);
      const id = JSON.stringify([grouping, day, groupKey]);
      let total = totals.get(id);
      if (total === undefined) {
        total = {
          grouping,
          day,
          group_key: groupKey,
          input_tokens: 0,
          output_tokens: 0,
          thinking_tokens: 0,
          cached_tokens: 0,
          model_calls: 0,
          cost_micros: 0,
          unpriced_calls: 0,
        };
        totals.set(id, total);
      }
      total.input_tokens += event.inputTokens;
      total.output_tokens += event.outputTokens;
      total.thinking_tokens += event.thinkingTokens;
      total.cached_tokens += event.cachedTokens;
      total.model_calls += 1;
      if (event.costMicros === null) total.unpriced_calls += 1;
      else total.cost_micros += event.costMicros;
    }
  }
  return [...totals.entries()]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([, total]) => total);
}

/** UTC `YYYY-MM-DD` of an epoch-milliseconds instant. */
export function utcDayOf(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 10);
}

/**
 * Metered model calls (`usage_events`): written in idempotent batches, aggregated per UTC day ×
 * group key. Admin/viewer reads across users; the caller audits.
 */
export class UsageRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Now by the repository clock, so the meter stamps calls with the clock the report reads by. */
  now(): number {
    return this.context.clock();
  }

  /** Today's UTC date by the repository clock, so default ranges follow the clock that stamped the rows. */
  currentDay(): string {
    return utcDayOf(this.context.clock());
  }

  /**
   * Stores a batch in one multi-row insert and adds what was new to the daily totals, in one
   * transaction. Ids already stored are skipped (and not added again), so writing the same batch
   * again — a retry after an error whose commit had in fact landed — never counts twice.
   * Returns how many events were new.
   */
  async recordBatch(events: readonly NewUsageEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    return this.context.db.transaction().execute(async (transaction) => {
      const inserted = await transaction
        .insertInto('usage_events')
        .values(
          events.map((event) => ({
            id: event.id,
            occurred_at: event.occurredAt,
            day: utcDayOf(event.occurredAt),
            source: event.source,
            model: event.model,
            provider: event.provider,
            api_key_id: event.apiKeyId,
            portal_id: event.portalId,
            end_user_id: event.endUserId,
            input_tokens: event.inputTokens,
            output_tokens: event.outputTokens,
            thinking_tokens: event.thinkingTokens,
            cached_tokens: event.cachedTokens,
            latency_ms: event.latencyMs,
            status: event.status,
            cost_micros: event.costMicros,
            price_id: event.priceId,
          })),
        )
        .onConflict((conflict) => conflict.column('id').doNothing())
        // Only the rows this statement inserted come back: exactly what the totals lack.
        .returning('id')
        .execute();
      if (inserted.length === 0) return 0;
      const insertedIds = new Set(inserted.map((row) => row.id));
      const totals = dailyTotalsOf(events.filter((event) => insertedIds.has(event.id)));
      await transaction
        .insertInto('usage_daily_totals')
        .values(totals)
        .onConflict((conflict) =>
          conflict.columns(['grouping', 'day', 'group_key']).doUpdateSet((update) => ({
            input_tokens: update('usage_daily_totals.input_tokens', '+', update.ref('excluded.input_tokens')),
            output_tokens: update(
              'usage_daily_totals.output_tokens',
              '+',
              update.ref('excluded.output_tokens'),
            ),
            thinking_tokens: update(
              'usage_daily_totals.thinking_tokens',
              '+',
              update.ref('excluded.thinking_tokens'),
            ),
            cached_tokens: update(
              'usage_daily_totals.cached_tokens',
              '+',
              update.ref('excluded.cached_tokens'),
            ),
            model_calls: update('usage_daily_totals.model_calls', '+', update.ref('excluded.model_calls')),
            cost_micros: update('usage_daily_totals.cost_micros', '+', update.ref('excluded.cost_micros')),
            unpriced_calls: update(
              'usage_daily_totals.unpriced_calls',
              '+',
              update.ref('excluded.unpriced_calls'),
            ),
          })),
        )
        .execute();
      return inserted.length;
    });
  }

  /** Every metered call of the filter, oldest first, in chunks (for exports; admin and viewer only). */
  exportEvents(filter: UsageEventFilter): ExportChunks<UsageEvent> {
    return exportUsageEvents(this.context, filter);
  }

  /** Sums per day and key, ordered by day then key; days and keys with no model call are absent. */
  async dailyUsage(range: UsageDayRange, groupBy: UsageGroupColumn): Promise<DailyUsageRow[]> {
    // A primary-key range scan over the kept totals: days × keys rows, not the range's events.
    const rows = await this.context.db
      .selectFrom('usage_daily_totals')
      .select([
        'day',
        'group_key as key',
        'input_tokens',
        'output_tokens',
        'thinking_tokens',
        'cached_tokens',
        'model_calls',
        'cost_micros',
        'unpriced_calls',
      ])
      .where('grouping', '=', groupBy)
      .where('day', '>=', range.fromDay)
      .where('day', '<=', range.toDay)
      .orderBy('day')
      .orderBy('group_key')
      .execute();
    // PostgreSQL returns bigint sums as strings; both engines end as numbers here.
    return rows.map((row) => ({
      day: row.day,
      key: row.key === '' ? null : row.key,
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      thinkingTokens: Number(row.thinking_tokens),
      cachedTokens: Number(row.cached_tokens),
      modelCalls: Number(row.model_calls),
      costMicros: Number(row.cost_micros),
      unpricedCalls: Number(row.unpriced_calls),
    }));
  }
}
