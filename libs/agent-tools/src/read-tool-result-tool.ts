import { createReadToolResultExecutor, readToolResultTool } from '@agentdesk/compressor';
import type { AgentTool, ToolContext } from './agent-tool';

/** `read_tool_result`: pages through the stored original of a truncated tool result. */
export const readToolResultAgentTool: AgentTool = {
  definition: readToolResultTool,
  execute: (argumentsText: string, context: ToolContext) =>
    createReadToolResultExecutor(context.toolResults)(argumentsText),
};

/** The tools every agent turn offers, whatever else is configured (the sandbox adds its own). */
export function builtInTools(): AgentTool[] {
  return [readToolResultAgentTool];
}
