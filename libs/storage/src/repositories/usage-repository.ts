import { sql } from 'kysely';
import type { UsageEventsTable } from '../database-schema';
import type { RepositoryContext } from './repository-context';

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
}

/** The column each grouping reads (each has a covering `(day, column, tokens…)` index). */
const groupColumns = {
  model: 'model',
  provider: 'provider',
  portal: 'portal_id',
  user: 'end_user_id',
} as const satisfies Record<UsageGroupColumn, keyof UsageEventsTable>;

/** UTC `YYYY-MM-DD` of an epoch-milliseconds instant. */
export function utcDayOf(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 10);
}

interface RawRow {
  day: string;
  key: string | null;
  input_tokens: number | string;
  output_tokens: number | string;
  thinking_tokens: number | string;
  cached_tokens: number | string;
  model_calls: number | string;
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
   * Stores a batch in one multi-row insert; ids already stored are skipped, so writing the same
   * batch again (a retry after an error whose commit had in fact landed) never counts twice.
   * Returns how many rows were new.
   */
  async recordBatch(events: readonly NewUsageEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const result = await this.context.db
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
        })),
      )
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /** Sums per day and key, ordered by day then key; days and keys with no model call are absent. */
  async dailyUsage(range: UsageDayRange, groupBy: UsageGroupColumn): Promise<DailyUsageRow[]> {
    const key = sql.ref(groupColumns[groupBy]);
    // Grouped by the index's own column order, so both engines read it in order without a sort.
    const { rows } = await sql<RawRow>`
      select day, ${key} as key,
        sum(input_tokens) as input_tokens,
        sum(output_tokens) as output_tokens,
        sum(thinking_tokens) as thinking_tokens,
        sum(cached_tokens) as cached_tokens,
        count(*) as model_calls
      from usage_events
      where day >= ${range.fromDay} and day <= ${range.toDay}
      group by day, ${key}
      order by day, ${key}
    `.execute(this.context.db);
    // PostgreSQL returns bigint sums as strings; both engines end as numbers here.
    return rows.map((row) => ({
      day: row.day,
      key: row.key,
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      thinkingTokens: Number(row.thinking_tokens),
      cachedTokens: Number(row.cached_tokens),
      modelCalls: Number(row.model_calls),
    }));
  }
}
