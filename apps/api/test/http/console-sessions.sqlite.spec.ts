import { describeConsoleSessions } from './suites/console-sessions.suite';

describeConsoleSessions('sqlite');
