import { describeAuthAndLimits } from './suites/auth-and-limits.suite';

describeAuthAndLimits('postgres');
