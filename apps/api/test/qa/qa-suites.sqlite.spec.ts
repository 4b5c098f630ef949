import { describeQaSuites } from './qa-suites.suite';

describeQaSuites('sqlite');
