import { describeAuditTrail } from './suites/audit-trail.suite';

describeAuditTrail('postgres');
