import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorField, pageQuery, pagedListQuery } from './pager';
import { textField } from './query-field';

const cursor = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);

function paramsOf(href: string): Record<string, string> {
  return Object.fromEntries(new URL(href, 'http://console.test').searchParams);
}

describe('the pager of every keyset-paged list', () => {
  const query = pagedListQuery('/things', { label: textField() });

  it('takes a cursor of the API’s shape and drops anything else (the list starts at its first page)', () => {
    expect(cursorField.read('WyJ0IiwxXQ')).toEqual({ kind: 'value', value: 'WyJ0IiwxXQ' });
    for (const malformed of ['a b', 'abc=', '../x', 'x'.repeat(513)])
      expect(cursorField.read(malformed), malformed).toEqual({ kind: 'ignored' });
    expect(query.parse({ label: 'x', cursor: 'not a cursor' })).toEqual({
      filters: { label: 'x' },
      problems: [],
    });
  });

  it('links to the next page with the same filters, which reads back as that page (property)', () => {
    fc.assert(
      fc.property(fc.option(cursor, { nil: undefined }), cursor, (current, next) => {
        const filters = { label: 'a&b', cursor: current };
        const links = query.pagerLinks(filters, next);
        expect(links.next).toBeDefined();
        expect(query.parse(paramsOf(links.next ?? '')).filters).toEqual({ label: 'a&b', cursor: next });
      }),
    );
  });

  it('offers the first page from a later one only, and the next page only when the API has one', () => {
    expect(query.pagerLinks({ label: 'x' }, null)).toEqual({});
    expect(query.pagerLinks({ label: 'x', cursor: 'c2' }, null)).toEqual({ first: '/things?label=x' });
    expect(query.pagerLinks({}, 'c2')).toEqual({ next: '/things?cursor=c2' });
  });

  it('keeps the cursor last in every link, after the filters', () => {
    expect(query.href({ cursor: 'c1', label: 'x' })).toBe('/things?label=x&cursor=c1');
  });

  it('asks the API for one page: where it starts, and how many', () => {
    expect(pageQuery(undefined, 25)).toEqual({ cursor: undefined, limit: '25' });
    expect(pageQuery('c1', 20)).toEqual({ cursor: 'c1', limit: '20' });
  });
});
