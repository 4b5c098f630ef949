import type { AgentTool } from '@agentdesk/agent-tools';
import { type SandboxResolver } from './sandbox-resolver';

/**
 * Puts the session sandbox's one-shot notice (its container was moved to a new image, or found
 * stopped or removed, and what was lost) in front of a tool's result, error or not: the model
 * learns it from the first result after the change, whichever sandbox tool that is.
 */
export function withSandboxNotice(tool: AgentTool, sandboxFor: SandboxResolver): AgentTool {
  return {
    ...tool,
    async execute(argumentsText, context) {
      const output = await tool.execute(argumentsText, context);
      const notice = sandboxFor(context).takeNotice();
      return notice === undefined ? output : { ...output, content: `${notice}\n\n${output.content}` };
    },
  };
}
