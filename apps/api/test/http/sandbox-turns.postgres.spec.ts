import { describeSandboxTurns } from './suites/sandbox-turns.suite';

describeSandboxTurns('postgres');
