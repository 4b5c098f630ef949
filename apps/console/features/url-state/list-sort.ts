import { sortDirections, type ListSort, type SortDirection } from '@agentdesk/api-contract';
import { choiceField, type QueryField } from './query-field';

/**
 * The `sort` and `dir` parameters of a list the API sorts (`sort=<field>&dir=asc|desc`), to spread
 * into the list's field table before its cursor. A word the API would refuse is a problem the page
 * names, never sent on.
 */
export function sortQueryFields<const Field extends string>(
  fields: readonly Field[],
): { readonly sort: QueryField<Field>; readonly dir: QueryField<SortDirection> } {
  return {
    sort: choiceField(fields, `Sort must be one of ${fields.join(', ')}.`),
    dir: choiceField(sortDirections, 'Sort direction must be asc or desc.'),
  };
}

/** What a list's URL says about its order: either part may be unset (the default's is used). */
export interface SortParams<Field extends string> {
  readonly sort?: Field | undefined;
  readonly dir?: SortDirection | undefined;
}

/** The order a list is shown in: the URL's, the default filling what it leaves out (as the API does). */
export function sortOf<Field extends string>(
  params: SortParams<Field>,
  defaultSort: ListSort<Field>,
): ListSort<Field> {
  return { field: params.sort ?? defaultSort.field, direction: params.dir ?? defaultSort.direction };
}

/** The URL parameters of `sort`; both left out when it is the default, so plain links stay plain. */
export function sortParamsOf<Field extends string>(
  sort: ListSort<Field>,
  defaultSort: ListSort<Field>,
): { sort: Field | undefined; dir: SortDirection | undefined } {
  return sort.field === defaultSort.field && sort.direction === defaultSort.direction
    ? { sort: undefined, dir: undefined }
    : { sort: sort.field, dir: sort.direction };
}

/**
 * The order a click on `field`'s header asks for: the other direction when the list is already
 * sorted by it, else `firstDirection` (newest or largest first for dates and counts, A→Z for text).
 */
export function nextSort<Field extends string>(
  current: ListSort<Field>,
  field: Field,
  firstDirection: SortDirection,
): ListSort<Field> {
  if (current.field !== field) return { field, direction: firstDirection };
  return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

/** `aria-sort` of a column header: set on the column the list is sorted by only. */
export function ariaSortOf<Field extends string>(
  current: ListSort<Field>,
  field: Field,
): 'ascending' | 'descending' | undefined {
  if (current.field !== field) return undefined;
  return current.direction === 'asc' ? 'ascending' : 'descending';
}

/**
 * What a sortable table needs from its page: the order shown, and the page's URL in another order
 * (the filters kept, the cursor dropped: a new order starts at its first page).
 */
export interface TableSorting<Field extends string> {
  readonly current: ListSort<Field>;
  readonly hrefOf: (sort: ListSort<Field>) => string;
}
