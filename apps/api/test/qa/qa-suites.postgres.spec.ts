import { describeQaSuites } from './qa-suites.suite';

describeQaSuites('postgres');
