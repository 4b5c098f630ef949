import {
  apiKeySortFields,
  defaultApiKeySort,
  type ApiKeySortField,
  type ListSort,
} from '@agentdesk/api-contract';
import {
  flagField,
  inParam,
  pagedListQuery,
  sortOf,
  sortParamsOf,
  sortQueryFields,
  type FiltersOf,
  type TableSorting,
} from '../url-state';

/** The keys page's URL: revoked keys shown too (`revoked=include`) or not, the order, and the page of keys. */
export const keyListQuery = pagedListQuery('/keys', {
  includeRevoked: inParam('revoked', flagField('include')),
  /** The column the keys are sorted by and which way (`created`, newest first, when unset). */
  ...sortQueryFields(apiKeySortFields),
});

export type KeyListFilters = FiltersOf<typeof keyListQuery.fields>;

/** The keys table's order and its header links (back to the first page). */
export function keySorting(filters: KeyListFilters): TableSorting<ApiKeySortField> {
  return {
    current: sortOf(filters, defaultApiKeySort),
    hrefOf: (sort: ListSort<ApiKeySortField>) =>
      keyListQuery.href(filters, { ...sortParamsOf(sort, defaultApiKeySort), cursor: undefined }),
  };
}
