export { PagerNav } from './components/pager-nav';
export {
  formatQuery,
  listQuery,
  type FieldTable,
  type FiltersOf,
  type ListQuery,
  type ParsedQuery,
} from './list-query';
export { cursorField, pageQuery, pagedListQuery, type PagedListQuery, type PagerLinks } from './pager';
export {
  choiceField,
  dayField,
  flagField,
  inParam,
  patternField,
  textField,
  withFallback,
  type DefaultedField,
  type FieldReading,
  type QueryField,
} from './query-field';
export { isCalendarDay, singleParam, startOfNextDay, type SearchParams } from './search-params';
