import { describeListDateRanges } from './suites/list-date-ranges.suite';

describeListDateRanges('sqlite');
