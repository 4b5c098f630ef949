import { describeEndUserHeader } from './suites/end-user-header.suite';

describeEndUserHeader('sqlite');
