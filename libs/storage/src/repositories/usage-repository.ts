import { PostgresAdapter, sql } from 'kysely';
import type { RepositoryContext } from './repository-context';

/** What the daily usage can be grouped by in the database (the provider is derived from the model by the caller). */
export type UsageGroupColumn = 'model' | 'portal' | 'user';

/** A day range, both ends inclusive, as UTC `YYYY-MM-DD` dates. */
export interface UsageDayRange {
  readonly fromDay: string;
  readonly toDay: string;
}

/** Tokens of every model call of one UTC day with one group key (null: no model / no portal). */
export interface DailyUsageRow {
  readonly day: string;
  readonly key: string | null;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly thinkingTokens: number;
  readonly cachedTokens: number;
  readonly modelCalls: number;
}

const MILLISECONDS_PER_DAY = 86_400_000;

/** Milliseconds since the epoch of a `YYYY-MM-DD` date's UTC midnight. */
function startOfDay(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
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
 * Token usage aggregated from the usage stored on assistant messages (one row per model call that
 * reported usage), one row per UTC day × group key. Admin/viewer reads across users; the caller audits.
 */
export class UsageRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Today's UTC date by the repository clock, so default ranges follow the clock that stamped the rows. */
  currentDay(): string {
    return new Date(this.context.clock()).toISOString().slice(0, 10);
  }

  /** Sums per day and key, ordered by day then key; days and keys with no model call are absent. */
  async dailyUsage(range: UsageDayRange, groupBy: UsageGroupColumn): Promise<DailyUsageRow[]> {
    const from = startOfDay(range.fromDay);
    const toExclusive = startOfDay(range.toDay) + MILLISECONDS_PER_DAY;
    const postgres = this.context.db.getExecutor().adapter instanceof PostgresAdapter;
    // Engines differ only in how an epoch-milliseconds bigint becomes a UTC date.
    const day = postgres
      ? sql`to_char(to_timestamp(messages.created_at / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`
      : sql`strftime('%Y-%m-%d', messages.created_at / 1000, 'unixepoch')`;
    const key = {
      model: sql`messages.model`,
      portal: sql`sessions.portal_id`,
      user: sql`sessions.owner_user_id`,
    }[groupBy];
    const { rows } = await sql<RawRow>`
      select ${day} as day, ${key} as key,
        sum(messages.input_tokens) as input_tokens,
        sum(coalesce(messages.output_tokens, 0)) as output_tokens,
        sum(coalesce(messages.thinking_tokens, 0)) as thinking_tokens,
        sum(coalesce(messages.cached_tokens, 0)) as cached_tokens,
        count(*) as model_calls
      from messages join sessions on sessions.id = messages.session_id
      where messages.role = 'assistant'
        and messages.input_tokens is not null
        and messages.created_at >= ${from}
        and messages.created_at < ${toExclusive}
      group by 1, 2
      order by 1, 2
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
