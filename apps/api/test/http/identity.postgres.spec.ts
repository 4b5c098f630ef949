import { describeIdentity } from './suites/identity.suite';

describeIdentity('postgres');
