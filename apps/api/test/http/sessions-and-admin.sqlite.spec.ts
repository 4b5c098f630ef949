import { describeSessionsAndAdmin } from './suites/sessions-and-admin.suite';

describeSessionsAndAdmin('sqlite');
