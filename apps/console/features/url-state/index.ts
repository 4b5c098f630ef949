export { isCalendarDay, singleParam, type SearchParams } from './search-params';
