import { describeQaRuns } from './qa-runs.suite';

describeQaRuns('postgres');
