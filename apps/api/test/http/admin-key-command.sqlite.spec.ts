import { describeAdminKeyCommand } from './suites/admin-key-command.suite';

describeAdminKeyCommand('sqlite');
