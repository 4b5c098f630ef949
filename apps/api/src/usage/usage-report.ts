import {
  costJsonOf,
  DEFAULT_USAGE_RANGE_DAYS,
  type UsageBucketJson,
  type UsageGrouping,
  type UsageReportJson,
  type UsageTotalJson,
} from '@agentdesk/api-contract';
import type { DailyUsageRow, UsageDayRange } from '@agentdesk/storage';

const MILLISECONDS_PER_DAY = 86_400_000;

function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * MILLISECONDS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * The range a report covers: both ends as given; one end alone spans the default number of days
 * from it; neither is the last 30 days up to `today`. Validation already bounded given ranges.
 */
export function resolveUsageRange(asked: { from?: string; to?: string }, today: string): UsageDayRange {
  const span = DEFAULT_USAGE_RANGE_DAYS - 1;
  if (asked.from !== undefined && asked.to !== undefined) return { fromDay: asked.from, toDay: asked.to };
  if (asked.from !== undefined) return { fromDay: asked.from, toDay: shiftDay(asked.from, span) };
  const toDay = asked.to ?? today;
  return { fromDay: shiftDay(toDay, -span), toDay };
}

type Sums = Omit<UsageTotalJson, 'key'>;

function emptySums(): Sums {
  return {
    inputTokens: 0,
    outputTokens: 0,
    thinkingTokens: 0,
    cachedTokens: 0,
    totalTokens: 0,
    modelCalls: 0,
    costMicros: 0,
    pricedCostMicros: 0,
    unpricedCalls: 0,
  };
}

function add(into: Sums, row: DailyUsageRow): void {
  into.inputTokens += row.inputTokens;
  into.outputTokens += row.outputTokens;
  into.thinkingTokens += row.thinkingTokens;
  into.cachedTokens += row.cachedTokens;
  into.totalTokens += row.inputTokens + row.outputTokens + row.thinkingTokens;
  into.modelCalls += row.modelCalls;
  Object.assign(
    into,
    costJsonOf(into.pricedCostMicros + row.costMicros, into.unpricedCalls + row.unpricedCalls),
  );
}

function compareKeys(left: string | null, right: string | null): number {
  if (left === right) return 0;
  if (left === null) return 1;
  if (right === null) return -1;
  return left < right ? -1 : 1;
}

/**
 * Builds the report from the database's day × key rows: daily buckets in day then key order (null
 * keys last, the same on both engines) and per-key totals, largest first.
 */
export function buildUsageReport(
  groupBy: UsageGrouping,
  range: UsageDayRange,
  rows: readonly DailyUsageRow[],
): UsageReportJson {
  const buckets = new Map<string, UsageBucketJson>();
  const totals = new Map<string | null, UsageTotalJson>();
  for (const row of rows) {
    const key = row.key;
    const bucketId = JSON.stringify([row.day, key]);
    const bucket = buckets.get(bucketId) ?? { day: row.day, key, ...emptySums() };
    add(bucket, row);
    buckets.set(bucketId, bucket);
    const total = totals.get(key) ?? { key, ...emptySums() };
    add(total, row);
    totals.set(key, total);
  }
  return {
    groupBy,
    from: range.fromDay,
    to: range.toDay,
    items: [...buckets.values()].sort((left, right) =>
      left.day < right.day ? -1 : left.day > right.day ? 1 : compareKeys(left.key, right.key),
    ),
    totals: [...totals.values()].sort(
      (left, right) => right.totalTokens - left.totalTokens || compareKeys(left.key, right.key),
    ),
  };
}
