import { defineTool, type AgentTool } from '@agentdesk/agent-tools';
import { z } from 'zod';
import { type SandboxConfig } from '../config/sandbox-config';
import { formatCommandResult } from './format-command-result';
import { type SandboxResolver } from './sandbox-resolver';
import { sandboxErrorOutput } from './tool-error-output';

/** `run_command`: a shell command in the session's sandbox (no network, /workspace writable). */
export function runCommandTool(config: SandboxConfig, sandboxFor: SandboxResolver): AgentTool {
  const maxTimeoutSeconds = Math.floor(config.exec.maxTimeoutMs / 1000);
  const defaultTimeoutSeconds = Math.max(1, Math.round(config.exec.timeoutMs / 1000));
  return defineTool({
    name: 'run_command',
    description:
      'Runs a shell command (sh -c) in this session’s private sandbox: a Linux container with busybox ' +
      'utilities and Node.js, working directory /workspace (the only writable place, kept between calls), ' +
      `no network. Returns the exit code, stdout and stderr. Killed after timeout_seconds (default ${defaultTimeoutSeconds}).`,
    arguments: z
      .object({
        command: z.string().min(1).max(100_000).describe('The command line, e.g. "ls -la && node -v"'),
        timeout_seconds: z
          .number()
          .int()
          .min(1)
          .max(maxTimeoutSeconds)
          .optional()
          .describe('Seconds before the command and its child processes are killed'),
      })
      .strict(),
    async execute({ command, timeout_seconds }, context) {
      try {
        // A cancelled turn kills its running command instead of leaving it to its timeout.
        const result = await sandboxFor(context).exec(
          {
            command,
            ...(timeout_seconds === undefined ? {} : { timeoutMs: timeout_seconds * 1000 }),
          },
          context.signal,
        );
        return { content: formatCommandResult(result), isError: false };
      } catch (error) {
        return sandboxErrorOutput('run_command', error);
      }
    },
  });
}
