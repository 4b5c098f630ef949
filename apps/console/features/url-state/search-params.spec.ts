import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCalendarDay, singleParam } from './search-params';

describe('URL query parameters of the console pages', () => {
  it('reads one trimmed value: the first of repeated ones, nothing for blank or absent', () => {
    expect(singleParam({ user: '  alice ' }, 'user')).toBe('alice');
    expect(singleParam({ user: ['bob', 'carol'] }, 'user')).toBe('bob');
    expect(singleParam({ user: '   ' }, 'user')).toBeUndefined();
    expect(singleParam({}, 'user')).toBeUndefined();
  });

  it('accepts exactly the YYYY-MM-DD days of the calendar', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        (date) => {
          expect(isCalendarDay(date.toISOString().slice(0, 10))).toBe(true);
        },
      ),
    );
    for (const notADay of [
      '2026-02-30',
      '2026-13-01',
      '2026-1-01',
      '20260101',
      '2026-01-01T00:00',
      'yesterday',
    ])
      expect(isCalendarDay(notADay), notADay).toBe(false);
  });
});
