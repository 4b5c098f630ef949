import { describeAuthorizationMatrix } from './suites/authorization-matrix.suite';

describeAuthorizationMatrix('postgres');
