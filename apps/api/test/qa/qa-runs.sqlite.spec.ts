import { describeQaRuns } from './qa-runs.suite';

describeQaRuns('sqlite');
