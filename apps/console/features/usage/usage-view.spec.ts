import { describe, expect, it } from 'vitest';
import { parseUsageView, usageHref } from './usage-view';

describe('the usage page’s URL', () => {
  it('defaults to grouping by model over the API’s default range', () => {
    expect(parseUsageView({})).toEqual({ view: { groupBy: 'model' }, problems: [] });
  });

  it('round-trips a view through its href', () => {
    const href = usageHref({ groupBy: 'user', from: '2026-01-01', to: '2026-01-31' });
    const params = Object.fromEntries(new URL(href, 'http://console').searchParams);
    expect(parseUsageView(params).view).toEqual({ groupBy: 'user', from: '2026-01-01', to: '2026-01-31' });
  });

  it.each([
    [{ groupBy: 'team' }, /Group by: “team”/],
    [{ groupBy: 'Model' }, /Group by: “Model”/],
    [{ from: '2026-02-30' }, /From: “2026-02-30”/],
    [{ to: 'yesterday' }, /To: “yesterday”/],
  ])('names what it cannot read (%o) instead of guessing', (params, problem) => {
    expect(parseUsageView(params).problems).toEqual([expect.stringMatching(problem)]);
  });
});
