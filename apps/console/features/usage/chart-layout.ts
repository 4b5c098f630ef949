import type { UsageBucketJson, UsageReportJson, UsageTotalJson } from '@agentdesk/api-contract';

/** How many keys get their own colour; the rest are summed into one “other” series. */
export const MAX_CHART_SERIES = 8;
/** Colours distinguishable for common colour-vision deficiencies (Okabe–Ito, with grey for “other”). */
export const seriesColours = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#000000',
];
export const otherColour = '#8c959f';

/** What the chart stacks: tokens, or micro-dollars of the calls that had a price. */
export type ChartMeasure = 'tokens' | 'cost';

/**
 * One series of the stacked chart: a key (or the “other” keys together) and its colour. With the
 * `cost` measure, every `totalTokens` / `tokens` value of the layout is micro-dollars instead.
 */
export interface ChartSeries {
  readonly key: string | null;
  readonly isOther: boolean;
  readonly colour: string;
  readonly totalTokens: number;
}

function valueOf(row: UsageBucketJson | UsageTotalJson, measure: ChartMeasure): number {
  return measure === 'cost' ? row.pricedCostMicros : row.totalTokens;
}

/** One day's bar: its segments bottom-up, in series order, only those with tokens. */
export interface ChartDay {
  readonly day: string;
  readonly totalTokens: number;
  readonly segments: ReadonlyArray<{ readonly seriesIndex: number; readonly tokens: number }>;
}

export interface ChartLayout {
  readonly series: readonly ChartSeries[];
  readonly days: readonly ChartDay[];
  /** The largest day total (the chart's scale); 0 when nothing was used. */
  readonly maximum: number;
}

function everyDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= Date.parse(`${to}T00:00:00Z`); time += 86_400_000)
    days.push(new Date(time).toISOString().slice(0, 10));
  return days;
}

/**
 * The stacked bars of a report: every day of its range (empty days included, so gaps show), the
 * largest keys as their own series and the rest as “other”. Each bar sums to that day's total.
 */
export function layoutUsageChart(report: UsageReportJson, measure: ChartMeasure = 'tokens'): ChartLayout {
  // Largest first by what is shown (the report orders its totals by tokens).
  const totals =
    measure === 'tokens'
      ? report.totals
      : [...report.totals].sort((left, right) => valueOf(right, measure) - valueOf(left, measure));
  const own = totals.slice(0, totals.length > MAX_CHART_SERIES ? MAX_CHART_SERIES - 1 : MAX_CHART_SERIES);
  const rest = totals.slice(own.length);
  const series: ChartSeries[] = own.map((total, index) => ({
    key: total.key,
    isOther: false,
    colour: seriesColours[index] ?? otherColour,
    totalTokens: valueOf(total, measure),
  }));
  if (rest.length > 0)
    series.push({
      key: null,
      isOther: true,
      colour: otherColour,
      totalTokens: rest.reduce((sum, total) => sum + valueOf(total, measure), 0),
    });
  const seriesOf = new Map(own.map((total, index) => [total.key, index]));
  const otherIndex = rest.length > 0 ? series.length - 1 : -1;
  const perDay = new Map<string, number[]>();
  for (const item of report.items) {
    const tokens = perDay.get(item.day) ?? series.map(() => 0);
    const index = seriesOf.get(item.key) ?? otherIndex;
    tokens[index] = (tokens[index] ?? 0) + valueOf(item, measure);
    perDay.set(item.day, tokens);
  }
  const days = everyDay(report.from, report.to).map((day): ChartDay => {
    const tokens = perDay.get(day) ?? [];
    const segments = tokens
      .map((value, seriesIndex) => ({ seriesIndex, tokens: value }))
      .filter((segment) => segment.tokens > 0);
    return { day, totalTokens: segments.reduce((sum, segment) => sum + segment.tokens, 0), segments };
  });
  return { series, days, maximum: Math.max(0, ...days.map((day) => day.totalTokens)) };
}
