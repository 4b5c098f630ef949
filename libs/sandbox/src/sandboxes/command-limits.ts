import { type SandboxConfig } from '../config/sandbox-config';
import { SandboxError } from '../engine/sandbox-error';
import { type RunCommandInput, runCommandInputSchema } from './run-command';

/** A command checked against the input schema, with the timeout and output cap it actually gets. */
export interface CommandLimits {
  readonly command: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

/** The OOM-kill count last seen in a container (the exec path compares it after a SIGKILL). */
export interface OomKillCounter {
  read(): number;
  write(count: number): void;
}

/** Validates a command and clamps its timeout and output cap to the configured maximums. */
export function commandLimits(config: SandboxConfig, input: RunCommandInput): CommandLimits {
  const parsed = runCommandInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new SandboxError(
      'invalid-input',
      `run_command input: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return {
    command: parsed.data.command,
    timeoutMs: Math.min(parsed.data.timeoutMs ?? config.exec.timeoutMs, config.exec.maxTimeoutMs),
    maxOutputBytes: Math.min(
      parsed.data.maxOutputBytes ?? config.exec.maxOutputBytes,
      config.exec.maxOutputBytes,
    ),
  };
}
