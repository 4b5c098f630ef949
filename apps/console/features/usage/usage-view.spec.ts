import { describe, expect, it } from 'vitest';
import { keyLabel, parseUsageView, usageHref } from './usage-view';

describe('the usage page’s URL', () => {
  it('defaults to grouping by model over the API’s default range', () => {
    expect(parseUsageView({})).toEqual({ view: { groupBy: 'model', measure: 'tokens' }, problems: [] });
  });

  it('round-trips a view through its href', () => {
    const href = usageHref({ groupBy: 'user', from: '2026-01-01', to: '2026-01-31', measure: 'cost' });
    const params = Object.fromEntries(new URL(href, 'http://console').searchParams);
    expect(parseUsageView(params).view).toEqual({
      groupBy: 'user',
      from: '2026-01-01',
      to: '2026-01-31',
      measure: 'cost',
    });
  });

  it.each([
    [{ groupBy: 'team' }, /^Group by must be one of model, /],
    [{ groupBy: 'Model' }, /^Group by must be one of model, /],
    [{ from: '2026-02-30' }, /^From must be a date/],
    [{ to: 'yesterday' }, /^To must be a date/],
  ])('names what it cannot read (%o) instead of guessing', (params, problem) => {
    expect(parseUsageView(params).problems).toEqual([expect.stringMatching(problem)]);
  });

  it('never repeats the URL’s words in a problem (a link anyone can write)', () => {
    const words = 'Your account is locked, call 555 0100';
    const { problems } = parseUsageView({ groupBy: words, from: words, to: words });
    expect(problems).toHaveLength(3);
    for (const problem of problems) expect(problem).not.toContain('locked');
  });
});

describe('a group key as the usage page names it', () => {
  const names = new Map([['0190-user-a', 'Alice']]);

  it('shows a user’s name where it is known, and the id where it is not', () => {
    expect(keyLabel('user', '0190-user-a', names)).toBe('Alice');
    expect(keyLabel('user', '0190-user-b', names)).toBe('0190-user-b');
  });

  it('says what a missing key means, per grouping', () => {
    expect(keyLabel('user', null, names)).toBe('no user');
    expect(keyLabel('portal', null)).toBe('no portal');
    expect(keyLabel('model', 'gpt-test')).toBe('gpt-test');
  });
});
