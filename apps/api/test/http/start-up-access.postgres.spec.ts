import { describeStartUpAccess } from './suites/start-up-access.suite';

describeStartUpAccess('postgres');
