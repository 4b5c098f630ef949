import { describeMessageSearch } from './suites/message-search.suite';

describeMessageSearch('postgres');
