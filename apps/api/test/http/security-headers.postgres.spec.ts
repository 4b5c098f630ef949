import { describeSecurityHeaders } from './suites/security-headers.suite';

describeSecurityHeaders('postgres');
