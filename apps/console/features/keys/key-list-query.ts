import { flagField, inParam, pagedListQuery, type FiltersOf } from '../url-state';

/** The keys page's URL: revoked keys shown too (`revoked=include`) or not, and the page of keys. */
export const keyListQuery = pagedListQuery('/keys', {
  includeRevoked: inParam('revoked', flagField('include')),
});

export type KeyListFilters = FiltersOf<typeof keyListQuery.fields>;
