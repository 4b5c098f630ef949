import { describeAuthorizationMatrix } from './suites/authorization-matrix.suite';

describeAuthorizationMatrix('sqlite');
