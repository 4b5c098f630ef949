import type { ToolResultStore } from '@agentdesk/compressor';
import type { ToolDefinition } from '@agentdesk/providers';

/** What a tool runs with: whose session it is, where full results live, and the turn's abort signal. */
export interface ToolContext {
  readonly ownerUserId: string;
  readonly sessionId: string;
  readonly toolResults: ToolResultStore;
  readonly signal: AbortSignal;
}

/** A tool's answer to the model. `isError` results are shown to the model, which may recover. */
export interface ToolOutput {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * A tool the agent may call. `execute` returning an error output is normal (bad arguments, nothing
 * found, a sandbox that is down); throwing is a crash and fails the turn.
 */
export interface AgentTool {
  readonly definition: ToolDefinition;
  execute(argumentsText: string, context: ToolContext): Promise<ToolOutput>;
}
