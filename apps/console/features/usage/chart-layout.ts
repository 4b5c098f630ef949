import type { UsageReportJson } from '@agentdesk/api-contract';

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

/** One series of the stacked chart: a key (or the “other” keys together) and its colour. */
export interface ChartSeries {
  readonly key: string | null;
  readonly isOther: boolean;
  readonly colour: string;
  readonly totalTokens: number;
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
export function layoutUsageChart(report: UsageReportJson): ChartLayout {
  const own = report.totals.slice(
    0,
    report.totals.length > MAX_CHART_SERIES ? MAX_CHART_SERIES - 1 : MAX_CHART_SERIES,
  );
  const rest = report.totals.slice(own.length);
  const series: ChartSeries[] = own.map((total, index) => ({
    key: total.key,
    isOther: false,
    colour: seriesColours[index] ?? otherColour,
    totalTokens: total.totalTokens,
  }));
  if (rest.length > 0)
    series.push({
      key: null,
      isOther: true,
      colour: otherColour,
      totalTokens: rest.reduce((sum, total) => sum + total.totalTokens, 0),
    });
  const seriesOf = new Map(own.map((total, index) => [total.key, index]));
  const otherIndex = rest.length > 0 ? series.length - 1 : -1;
  const perDay = new Map<string, number[]>();
  for (const item of report.items) {
    const tokens = perDay.get(item.day) ?? series.map(() => 0);
    const index = seriesOf.get(item.key) ?? otherIndex;
    tokens[index] = (tokens[index] ?? 0) + item.totalTokens;
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
