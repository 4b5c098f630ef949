import { describeIdentity } from './suites/identity.suite';

describeIdentity('sqlite');
