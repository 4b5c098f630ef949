import { describeAdminToolResults } from './suites/admin-tool-results.suite';

describeAdminToolResults('postgres');
