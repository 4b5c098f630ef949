import type { ToolContext } from '@agentdesk/agent-tools';
import { type SessionSandbox } from '../sandbox-service';

/** Finds the sandbox of the session a tool call belongs to. */
export type SandboxResolver = (context: ToolContext) => SessionSandbox;
