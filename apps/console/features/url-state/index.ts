export { isCalendarDay, readDayRange, singleParam, startOfNextDay, type SearchParams } from './search-params';
