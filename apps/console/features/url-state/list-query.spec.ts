import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listQuery, type FiltersOf } from './list-query';
import {
  choiceField,
  dayField,
  flagField,
  inParam,
  patternField,
  textField,
  withFallback,
} from './query-field';

/** One field of every kind, as the console's pages combine them. */
const exampleQuery = listQuery('/example', {
  groupBy: withFallback(choiceField(['model', 'user'], 'Group by must be model or user.'), 'model'),
  user: inParam('owner', patternField(/^u[0-9]{1,6}$/)),
  label: textField(),
  status: choiceField(['open', 'closed'], 'Status must be open or closed.'),
  includeEnded: inParam('ended', flagField('include')),
  from: dayField('From'),
  to: dayField('To'),
});
type ExampleFilters = FiltersOf<typeof exampleQuery.fields>;

const trimmedText = fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.trim() === text);
const day = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const exampleFilters: fc.Arbitrary<ExampleFilters> = fc.record(
  {
    groupBy: fc.constantFrom('model' as const, 'user' as const),
    user: fc.stringMatching(/^u[0-9]{1,6}$/),
    label: trimmedText,
    status: fc.constantFrom('open' as const, 'closed' as const),
    includeEnded: fc.boolean(),
    from: day,
    to: day,
  },
  { requiredKeys: ['groupBy', 'includeEnded'] },
);

function paramsOf(href: string): Record<string, string> {
  return Object.fromEntries(new URL(href, 'http://console.test').searchParams);
}

describe('a page’s filters in its URL', () => {
  it('reads back exactly the filters a link was made from (property)', () => {
    fc.assert(
      fc.property(exampleFilters, (filters) => {
        expect(exampleQuery.parse(paramsOf(exampleQuery.href(filters)))).toEqual({ filters, problems: [] });
      }),
    );
  });

  it('puts only the filters that are set in the URL, under their parameter names (property)', () => {
    fc.assert(
      fc.property(exampleFilters, (filters) => {
        const expected = new Set<string>(['groupBy']);
        if (filters.user !== undefined) expected.add('owner');
        if (filters.label !== undefined) expected.add('label');
        if (filters.status !== undefined) expected.add('status');
        if (filters.includeEnded) expected.add('ended');
        if (filters.from !== undefined) expected.add('from');
        if (filters.to !== undefined) expected.add('to');
        expect(new Set(Object.keys(paramsOf(exampleQuery.href(filters))))).toEqual(expected);
      }),
    );
  });

  it('writes the parameters in the table’s order, and the bare path when none is set', () => {
    expect(exampleQuery.href({ groupBy: 'user', to: '2026-01-31', label: 'a b', includeEnded: true })).toBe(
      '/example?groupBy=user&label=a+b&ended=include&to=2026-01-31',
    );
    expect(listQuery('/plain', { label: textField() }).href({})).toBe('/plain');
  });

  it('treats blank and absent parameters alike, and fills in fallbacks', () => {
    expect(exampleQuery.parse({ label: '  ', status: '', owner: [] })).toEqual({
      filters: { groupBy: 'model', includeEnded: false },
      problems: [],
    });
  });

  it('reads the first of a repeated parameter, trimmed, and ignores parameters it does not know', () => {
    expect(exampleQuery.parse({ label: [' first ', 'second'], unknown: 'x' }).filters).toEqual({
      groupBy: 'model',
      includeEnded: false,
      label: 'first',
    });
  });

  it('names each unusable value’s field in the table’s order, never quoting the URL (property)', () => {
    fc.assert(
      fc.property(
        // Words no field could take: longer than any choice or id, not starting like a day.
        fc
          .string({ maxLength: 40 })
          .filter((text) => text.trim().length >= 8 && !/^\d{4}-/.test(text.trim())),
        (words) => {
          const { filters, problems } = exampleQuery.parse({
            groupBy: words,
            status: words,
            from: words,
            to: words,
            owner: words,
          });
          expect(problems).toEqual([
            'Group by must be model or user.',
            'Status must be open or closed.',
            'From must be a date like 2026-01-31.',
            'To must be a date like 2026-01-31.',
          ]);
          expect(filters).toEqual({ groupBy: 'model', includeEnded: false });
        },
      ),
    );
  });

  it('applies changes to a link, `undefined` removing a filter', () => {
    const filters: ExampleFilters = { groupBy: 'user', label: 'x', includeEnded: true };
    expect(exampleQuery.href(filters, { label: undefined, includeEnded: false })).toBe(
      '/example?groupBy=user',
    );
    expect(exampleQuery.href(filters, { status: 'open' })).toBe(
      '/example?groupBy=user&label=x&status=open&ended=include',
    );
  });
});
