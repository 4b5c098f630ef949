export { DatePresets } from './components/date-presets';
export { FilterForm } from './components/filter-form';
export { DateRangeFields, FilterActions } from './components/filter-parts';
export { PagerNav } from './components/pager-nav';
export { SortableHeader } from './components/sortable-header';
export { datePresets, dayRangeProblem, queryOfSetFields, utcDay, type DatePreset } from './date-range';
export {
  formatQuery,
  listQuery,
  type FieldTable,
  type FiltersOf,
  type ListQuery,
  type ParsedQuery,
} from './list-query';
export {
  ariaSortOf,
  nextSort,
  sortOf,
  sortParamsOf,
  sortQueryFields,
  type SortParams,
  type TableSorting,
} from './list-sort';
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
