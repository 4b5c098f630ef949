import { describe, expect, it } from 'vitest';
import { datePresets, dayRangeProblem, queryOfSetFields, utcDay } from './date-range';

describe('date presets', () => {
  it('count whole UTC days ending today, today included', () => {
    // 23:30 in UTC is already the next day in Berlin: the presets follow UTC, as the page says.
    expect(datePresets(new Date('2026-03-31T23:30:00Z'))).toEqual([
      { label: 'Today', from: '2026-03-31', to: '2026-03-31' },
      { label: 'Last 7 days', from: '2026-03-25', to: '2026-03-31' },
      { label: 'Last 30 days', from: '2026-03-02', to: '2026-03-31' },
    ]);
  });

  it('cross a month and a leap day', () => {
    expect(datePresets(new Date('2028-03-02T00:00:00Z'))[1]).toEqual({
      label: 'Last 7 days',
      from: '2028-02-25',
      to: '2028-03-02',
    });
    expect(utcDay(new Date('2028-02-29T12:00:00Z'))).toBe('2028-02-29');
  });
});

describe('dayRangeProblem', () => {
  const titles = { from: 'From', to: 'To' };
  it('refuses a start after the end, in the form’s titles', () => {
    expect(dayRangeProblem({ from: '2026-03-02', to: '2026-03-01' }, titles)).toBe(
      'From must not be after To.',
    );
  });
  it('accepts one day, an ordered range, and an open end', () => {
    expect(dayRangeProblem({ from: '2026-03-01', to: '2026-03-01' }, titles)).toBeUndefined();
    expect(dayRangeProblem({ from: '2026-02-28', to: '2026-03-01' }, titles)).toBeUndefined();
    expect(dayRangeProblem({ from: '2026-03-02' }, titles)).toBeUndefined();
  });
});

describe('queryOfSetFields', () => {
  it('leaves out empty and blank fields, keeping the others in order', () => {
    expect(
      queryOfSetFields([
        ['user', ''],
        ['portal', '  '],
        ['status', 'open'],
        ['label', 'a b'],
        ['from', ''],
      ]),
    ).toBe('status=open&label=a+b');
  });
  it('is empty when nothing is set', () => {
    expect(queryOfSetFields([['user', '']])).toBe('');
  });
});
