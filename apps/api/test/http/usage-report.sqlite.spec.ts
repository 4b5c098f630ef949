import { describeUsageReport } from './suites/usage-report.suite';

describeUsageReport('sqlite');
