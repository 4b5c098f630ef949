import { describeSandboxReadiness } from './suites/sandbox-readiness.suite';

describeSandboxReadiness('sqlite');
