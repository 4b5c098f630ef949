import type { AgentTool } from '@agentdesk/agent-tools';
import { type SandboxService } from '../sandbox-service';
import { listFilesTool, readFileTool, writeFileTool } from './file-tools';
import { runCommandTool } from './run-command-tool';
import { withSandboxNotice } from './with-sandbox-notice';

/** The names of the sandbox tools, as the model sees them. */
export const sandboxToolNames = ['run_command', 'read_file', 'write_file', 'list_files'] as const;

/**
 * The agent tools that act in the calling session's own sandbox: `run_command`, `read_file`,
 * `write_file`, `list_files`. Every failure (timeout, out of memory, engine down, bad path) is an
 * error result for the model; the turn goes on. A change to the sandbox the model did not make (a
 * new image, a lost workspace) is stated in front of the next result.
 */
export function createSandboxTools(service: SandboxService): AgentTool[] {
  const sandboxFor = (context: { sessionId: string }) => service.forSession(context.sessionId);
  return [
    runCommandTool(service.config, sandboxFor),
    readFileTool(sandboxFor),
    writeFileTool(service.config, sandboxFor),
    listFilesTool(sandboxFor),
  ].map((tool) => withSandboxNotice(tool, sandboxFor));
}
