import { describeSandboxAdmin } from './suites/sandbox-admin.suite';

describeSandboxAdmin('postgres');
