import type { ToolOutput } from '@agentdesk/agent-tools';
import { type CapturedStream } from '../engine/demultiplex-output';
import { isSandboxError, type SandboxError } from '../engine/sandbox-error';
import { formatStream } from './format-command-result';

/**
 * What the model reads when a sandbox tool fails. Every `SandboxError` becomes an error result the
 * model can act on (retry smaller, fix a path, carry on without the sandbox); anything else is a
 * bug and is rethrown, so the turn records it as a crash instead of hiding it.
 */
export function sandboxErrorOutput(toolName: string, error: unknown): ToolOutput {
  if (!isSandboxError(error)) throw error;
  return { content: `${toolName}: ${describeFailure(error)}`, isError: true };
}

function describeFailure(error: SandboxError): string {
  // Messages that end a sentence themselves (the engine-unavailable hint) would get a second period.
  const message = error.message.replace(/\.$/, '');
  switch (error.code) {
    case 'exec-timeout':
      return `timed out: ${message}.${partialOutput(error)}`;
    case 'exec-cancelled':
      return `cancelled: ${message}.${partialOutput(error)}`;
    case 'out-of-memory':
      return `out of memory: ${message}. Use less memory (smaller inputs, streaming) and retry.${partialOutput(error)}`;
    case 'engine-unavailable':
      return `the sandbox is unavailable right now (its container engine cannot be reached): ${message}. Continue without it or try again later.${partialOutput(error)}`;
    case 'invalid-path':
    case 'file-not-found':
    case 'file-too-large':
    case 'invalid-input':
      return error.message;
    case 'container-stopped':
      return `the sandbox stopped: ${message}.${partialOutput(error)}`;
    case 'container-missing':
      return `the sandbox is gone: ${message}.${partialOutput(error)}`;
    case 'engine-error':
    case 'image-missing':
    case 'build-failed':
      return `the sandbox failed: ${message}`;
  }
}

function partialOutput(error: SandboxError): string {
  const stdout = error.details['stdout'] as CapturedStream | undefined;
  const stderr = error.details['stderr'] as CapturedStream | undefined;
  if (!stdout && !stderr) return '';
  return `\n${formatStream('stdout (partial)', stdout)}\n${formatStream('stderr (partial)', stderr)}`;
}
