import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UsageReportJson } from '@agentdesk/api-contract';
import { layoutUsageChart, MAX_CHART_SERIES } from './chart-layout';

function reportOf(
  items: ReadonlyArray<{ day: string; key: string | null; totalTokens: number }>,
): UsageReportJson {
  const totals = new Map<string | null, number>();
  for (const item of items) totals.set(item.key, (totals.get(item.key) ?? 0) + item.totalTokens);
  const zero = {
    inputTokens: 0,
    outputTokens: 0,
    thinkingTokens: 0,
    cachedTokens: 0,
    modelCalls: 1,
    costMicros: 0,
    pricedCostMicros: 0,
    unpricedCalls: 0,
  };
  return {
    groupBy: 'model',
    from: '2026-03-01',
    to: '2026-03-05',
    items: items.map((item) => ({ ...zero, ...item })),
    totals: [...totals]
      .map(([key, totalTokens]) => ({ ...zero, key, totalTokens }))
      .sort((left, right) => right.totalTokens - left.totalTokens),
  };
}

describe('the stacked usage chart', () => {
  it('charts by cost: the priced calls’ micro-dollars, largest cost first', () => {
    const report = reportOf([
      { day: '2026-03-01', key: 'cheap', totalTokens: 1_000 },
      { day: '2026-03-01', key: 'dear', totalTokens: 10 },
    ]);
    const costs = new Map([
      ['cheap', 30],
      ['dear', 5_000],
    ]);
    const withCost = <T extends { key: string | null }>(row: T) => ({
      ...row,
      pricedCostMicros: costs.get(row.key ?? '') ?? 0,
      costMicros: costs.get(row.key ?? '') ?? 0,
    });
    const costed = { ...report, items: report.items.map(withCost), totals: report.totals.map(withCost) };
    const layout = layoutUsageChart(costed, 'cost');
    expect(layout.series.map((series) => [series.key, series.totalTokens])).toEqual([
      ['dear', 5_000],
      ['cheap', 30],
    ]);
    expect(layout.maximum).toBe(5_030);
    expect(layoutUsageChart(costed).series.map((series) => series.key)).toEqual(['cheap', 'dear']);
  });

  it('has a bar for every day of the range, empty days included', () => {
    const layout = layoutUsageChart(reportOf([{ day: '2026-03-02', key: 'gpt-4o', totalTokens: 10 }]));
    expect(layout.days.map((day) => [day.day, day.totalTokens])).toEqual([
      ['2026-03-01', 0],
      ['2026-03-02', 10],
      ['2026-03-03', 0],
      ['2026-03-04', 0],
      ['2026-03-05', 0],
    ]);
    expect(layout.maximum).toBe(10);
  });

  it('gives the largest keys their own colour and sums the rest as “other”', () => {
    const items = Array.from({ length: MAX_CHART_SERIES + 2 }, (_, index) => ({
      day: '2026-03-01',
      key: `model-${index}`,
      totalTokens: 100 - index,
    }));
    const layout = layoutUsageChart(reportOf(items));
    expect(layout.series).toHaveLength(MAX_CHART_SERIES);
    expect(layout.series.at(-1)).toMatchObject({ isOther: true, totalTokens: 93 + 92 + 91 });
    expect(new Set(layout.series.map((series) => series.colour)).size).toBe(MAX_CHART_SERIES);
  });

  it('every bar sums to its day’s tokens and every series to its total (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            day: fc.constantFrom('2026-03-01', '2026-03-03', '2026-03-05'),
            key: fc.option(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k')),
            totalTokens: fc.integer({ min: 1, max: 1_000_000 }),
          }),
          { maxLength: 40 },
        ),
        (items) => {
          const layout = layoutUsageChart(reportOf(items));
          for (const day of layout.days) {
            const expected = items
              .filter((item) => item.day === day.day)
              .reduce((sum, item) => sum + item.totalTokens, 0);
            expect(day.totalTokens).toBe(expected);
            expect(day.segments.reduce((sum, segment) => sum + segment.tokens, 0)).toBe(expected);
          }
          layout.series.forEach((series, index) => {
            const drawn = layout.days
              .flatMap((day) => day.segments)
              .filter((segment) => segment.seriesIndex === index);
            expect(drawn.reduce((sum, segment) => sum + segment.tokens, 0)).toBe(series.totalTokens);
          });
        },
      ),
    );
  });
});
