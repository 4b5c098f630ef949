import { describeAdminSessionFiltersAndReadAudit } from './suites/admin-session-filters-and-read-audit.suite';

describeAdminSessionFiltersAndReadAudit('postgres');
