import { describe, expect, it } from 'vitest';
import { pagedListQuery } from './pager';
import { ariaSortOf, nextSort, sortOf, sortParamsOf, sortQueryFields } from './list-sort';
import { textField } from './query-field';

const fields = ['created', 'label'] as const;
const defaultSort = { field: 'created', direction: 'desc' } as const;
const exampleQuery = pagedListQuery('/example', { label: textField(), ...sortQueryFields(fields) });

describe('sortable list URLs', () => {
  it('reads sort and dir, the default filling what the URL leaves out', () => {
    const { filters, problems } = exampleQuery.parse({ sort: 'label', cursor: 'abc' });
    expect(problems).toEqual([]);
    expect(sortOf(filters, defaultSort)).toEqual({ field: 'label', direction: 'desc' });
    expect(sortOf({}, defaultSort)).toEqual(defaultSort);
  });

  it('names a sort or direction the API would refuse instead of sending it on', () => {
    expect(exampleQuery.parse({ sort: 'owner', dir: 'up' }).problems).toEqual([
      'Sort must be one of created, label.',
      'Sort direction must be asc or desc.',
    ]);
  });

  it('turns the order round on the sorted column and starts another column in its first direction', () => {
    const byLabel = { field: 'label', direction: 'asc' } as const;
    expect(nextSort(byLabel, 'label', 'asc')).toEqual({ field: 'label', direction: 'desc' });
    expect(nextSort({ field: 'label', direction: 'desc' }, 'label', 'asc')).toEqual(byLabel);
    expect(nextSort(byLabel, 'created', 'desc')).toEqual(defaultSort);
    expect(ariaSortOf(byLabel, 'label')).toBe('ascending');
    expect(ariaSortOf(byLabel, 'created')).toBeUndefined();
  });

  it('writes the order before the cursor, keeps the filters, and leaves the default order out', () => {
    const { filters } = exampleQuery.parse({ label: 'x y', cursor: 'abc' });
    const href = (sort: { field: 'created' | 'label'; direction: 'asc' | 'desc' }) =>
      exampleQuery.href(filters, { ...sortParamsOf(sort, defaultSort), cursor: undefined });
    expect(href({ field: 'label', direction: 'asc' })).toBe('/example?label=x+y&sort=label&dir=asc');
    expect(href(defaultSort)).toBe('/example?label=x+y');
    const sorted = exampleQuery.parse({ sort: 'label', dir: 'asc' }).filters;
    expect(exampleQuery.pagerLinks(sorted, 'next1').next).toBe('/example?sort=label&dir=asc&cursor=next1');
  });
});
