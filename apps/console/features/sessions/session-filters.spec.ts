import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSessionFilters, sessionsHref, toAdminListQuery, type SessionFilters } from './session-filters';

function paramsOf(href: string): Record<string, string> {
  return Object.fromEntries(new URL(href, 'http://console.test').searchParams);
}

describe('session filters in the URL', () => {
  it('reads every filter the admin listing supports', () => {
    const { filters, problems } = parseSessionFilters({
      user: ' 0190a0c0-0000-7000-8000-000000000001 ',
      portal: ' acme ',
      model: 'gpt-4o',
      status: 'closed',
      label: 'invoice',
      from: '2026-01-01',
      to: '2026-01-31',
      cursor: 'abc_123',
    });
    expect(problems).toEqual([]);
    expect(filters).toEqual({
      user: '0190a0c0-0000-7000-8000-000000000001',
      portal: 'acme',
      model: 'gpt-4o',
      status: 'closed',
      label: 'invoice',
      from: '2026-01-01',
      to: '2026-01-31',
      cursor: 'abc_123',
    });
  });

  it('ignores empty fields, as an unfilled form sends them', () => {
    expect(
      parseSessionFilters({ user: '', portal: ' ', model: '', label: '  ', status: '', from: '' }),
    ).toEqual({
      filters: {},
      problems: [],
    });
  });

  it.each([
    [{ status: 'archived' }, 'Status must be open or closed'],
    [{ from: '31/01/2026' }, 'Created from must be a date'],
    [{ to: '2026-02-30' }, 'Created to must be a date'],
    [{ from: '2026-1-5' }, 'Created from must be a date'],
  ])('names the field of an unusable value %j', (params, message) => {
    const { problems } = parseSessionFilters(params);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it('never repeats the URL’s words in a problem (a link anyone can write)', () => {
    const words = 'Your account is locked, call 555 0100';
    const { problems } = parseSessionFilters({ status: words, from: words, to: words });
    expect(problems).toHaveLength(3);
    for (const problem of problems) expect(problem).not.toContain('locked');
  });

  it('sends the last day as included: before the start of the next day (UTC)', () => {
    expect(toAdminListQuery({ from: '2026-01-01', to: '2026-12-31' }, 25)).toMatchObject({
      createdFrom: '2026-01-01T00:00:00.000Z',
      createdBefore: '2027-01-01T00:00:00.000Z',
      limit: '25',
    });
  });

  it('names the API’s query fields for the page’s filters', () => {
    expect(
      toAdminListQuery(
        { user: 'alice', portal: 'acme', model: 'gpt-4o', status: 'open', label: 'x', cursor: 'c' },
        10,
      ),
    ).toEqual({
      user: 'alice',
      portalId: 'acme',
      model: 'gpt-4o',
      status: 'open',
      label: 'x',
      createdFrom: undefined,
      createdBefore: undefined,
      cursor: 'c',
      limit: '10',
    });
  });

  it('sends a user id as the owner id, and anything else as a name for the API to resolve', () => {
    const id = '0190a0c0-0000-7000-8000-000000000001';
    expect(toAdminListQuery({ user: id }, 10)).toMatchObject({ userId: id });
    expect(toAdminListQuery({ user: id }, 10)).not.toHaveProperty('user');
    expect(toAdminListQuery({ user: 'Alice' }, 10)).toMatchObject({ user: 'Alice' });
    expect(toAdminListQuery({ user: 'Alice' }, 10)).not.toHaveProperty('userId');
  });

  it('keeps any filters through a link and back (property)', () => {
    const text = fc.string({ minLength: 1, maxLength: 30 }).filter((value) => value.trim() === value);
    const day = fc
      .date({
        min: new Date('2000-01-01T00:00:00Z'),
        max: new Date('2099-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10));
    const filters: fc.Arbitrary<SessionFilters> = fc.record(
      {
        user: text,
        portal: text,
        model: text,
        status: fc.constantFrom('open' as const, 'closed' as const),
        label: text,
        from: day,
        to: day,
        cursor: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
      },
      { requiredKeys: [] },
    );
    // A range the wrong way round is a problem of its own (below): the property holds for the others.
    const inOrder = filters.filter(
      (value) => value.from === undefined || value.to === undefined || value.from <= value.to,
    );
    fc.assert(
      fc.property(inOrder, (original) => {
        const parsed = parseSessionFilters(paramsOf(sessionsHref(original)));
        expect(parsed.problems).toEqual([]);
        expect(parsed.filters).toEqual(original);
      }),
    );
  });

  it('names a range the wrong way round by the form’s field titles', () => {
    expect(parseSessionFilters({ from: '2026-03-02', to: '2026-03-01' }).problems).toEqual([
      'Created from must not be after Created to.',
    ]);
    expect(parseSessionFilters({ from: '2026-03-01', to: '2026-03-01' }).problems).toEqual([]);
  });

  it('keeps portal and model in the link to the next page', () => {
    expect(paramsOf(sessionsHref({ portal: 'acme', model: 'gpt-4o' }, { cursor: 'next' }))).toEqual({
      portal: 'acme',
      model: 'gpt-4o',
      cursor: 'next',
    });
  });

  it('drops a filter when a link changes it to undefined (the first page drops the cursor)', () => {
    expect(sessionsHref({ label: 'a b', cursor: 'next' }, { cursor: undefined })).toBe('/sessions?label=a+b');
    expect(sessionsHref({})).toBe('/sessions');
  });
});
