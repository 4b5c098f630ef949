import { formatQuery, listQuery, type FieldTable, type FiltersOf, type ListQuery } from './list-query';
import { patternField } from './query-field';

/**
 * The API's keyset cursor as its `cursorSchema` accepts it (`apps/api/src/http/inputs.ts`). A
 * malformed one (hand-edited, truncated) is dropped and the list starts at its first page, rather
 * than sent on for the API to refuse.
 */
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,512}$/;

/** The `cursor` parameter of every paged list: the `nextCursor` the API gave for the page before. */
export const cursorField = patternField(CURSOR_PATTERN);

/** The API's query for one page of a list: where it starts (from the first page when unset) and its size. */
export function pageQuery(
  cursor: string | undefined,
  pageSize: number,
): { cursor: string | undefined; limit: string } {
  return { cursor, limit: String(pageSize) };
}

/** The links under a page of a list; each is absent when there is nowhere to go. */
export interface PagerLinks {
  /** Back to the first page, from a later one. */
  first?: string;
  /** On to the next page, when the API said there is one. */
  next?: string;
}

type PagedFields<Fields extends FieldTable> = Fields & { readonly cursor: typeof cursorField };

/** A list's URL with its pager: the filters, then the cursor of the page shown. */
export interface PagedListQuery<Fields extends FieldTable> extends ListQuery<PagedFields<Fields>> {
  /** The pager's links for the page shown with `filters`, given the API's `nextCursor`. */
  pagerLinks(filters: FiltersOf<PagedFields<Fields>>, nextCursor: string | null): PagerLinks;
}

/** `listQuery` for a keyset-paged list: `fields`, then `cursor`, last in every link. */
export function pagedListQuery<const Fields extends FieldTable>(
  path: string,
  fields: Fields,
): PagedListQuery<Fields> {
  const pagedFields: PagedFields<Fields> = { ...fields, cursor: cursorField };
  const query = listQuery(path, pagedFields);
  return {
    ...query,
    pagerLinks(filters, nextCursor) {
      const values: Readonly<Record<string, unknown>> = filters;
      return {
        ...(values.cursor === undefined
          ? {}
          : { first: formatQuery(path, pagedFields, { ...values, cursor: undefined }) }),
        ...(nextCursor === null
          ? {}
          : { next: formatQuery(path, pagedFields, { ...values, cursor: nextCursor }) }),
      };
    },
  };
}
