import { describeAgentTurns } from './suites/agent-turns.suite';

describeAgentTurns('postgres');
