import { describeUsageMetering } from './suites/usage-metering.suite';

describeUsageMetering('sqlite');
