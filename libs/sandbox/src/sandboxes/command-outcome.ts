import { type CapturedStream } from '../engine/demultiplex-output';
import { SandboxError } from '../engine/sandbox-error';

/** A command that ran to its end, whatever its exit code. */
export interface CommandResult {
  readonly exitCode: number;
  /**
   * The signal that ended the command (`SIGKILL`, `SIGSEGV`, …), when it ended by one: not our
   * timeout or cancel, not the out-of-memory killer (those are errors). A Docker exec only reports
   * an exit status, where 128 + n is how a shell reports signal n.
   */
  readonly signal?: string;
  readonly stdout: CapturedStream;
  readonly stderr: CapturedStream;
  readonly durationMs: number;
}

/** What the container was after the command, as far as the engine could tell. */
export type ContainerStateAfterCommand = 'running' | 'stopped' | 'missing' | 'unknown';

/**
 * Everything known about how a command ended, from either path (a Docker exec per command, or the
 * in-container runner). `commandOutcomeResult` turns it into the one result or error both share.
 */
export interface CommandOutcome {
  /** The exit status the engine (or runner) reported; undefined when none could be read. */
  readonly exitCode: number | undefined;
  /** The signal name when the reporter knows it directly (the runner); else derived from 128 + n. */
  readonly signal?: string | undefined;
  /** True only when the cgroup's OOM-kill counter rose or the engine said so; a failed check is false. */
  readonly oomKilled: boolean;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** False when the engine stopped answering during or right after the command. */
  readonly engineReachable: boolean;
  readonly containerState: ContainerStateAfterCommand;
  readonly stdout: CapturedStream;
  readonly stderr: CapturedStream;
  readonly durationMs: number;
}

/** The limits a message names. */
export interface CommandOutcomeLimits {
  readonly timeoutMs: number;
  readonly memoryBytes: number;
}

/**
 * Linux signal numbers (x86 and arm, which is what sandboxes run on). Not `os.constants.signals`:
 * the API may run on another OS than the engine's, and the numbers differ (SIGUSR1 is 30 on macOS).
 */
const linuxSignals = [
  'SIGHUP',
  'SIGINT',
  'SIGQUIT',
  'SIGILL',
  'SIGTRAP',
  'SIGABRT',
  'SIGBUS',
  'SIGFPE',
  'SIGKILL',
  'SIGUSR1',
  'SIGSEGV',
  'SIGUSR2',
  'SIGPIPE',
  'SIGALRM',
  'SIGTERM',
  'SIGSTKFLT',
  'SIGCHLD',
  'SIGCONT',
  'SIGSTOP',
  'SIGTSTP',
  'SIGTTIN',
  'SIGTTOU',
  'SIGURG',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGVTALRM',
  'SIGPROF',
  'SIGWINCH',
  'SIGIO',
  'SIGPWR',
  'SIGSYS',
] as const;

/** `137` → `SIGKILL` (128 + 9); undefined for an exit status that is not 128 + a known signal. */
export function signalOfExitCode(exitCode: number | undefined): string | undefined {
  if (exitCode === undefined || exitCode <= 128) return undefined;
  return linuxSignals[exitCode - 129];
}

/** `SIGKILL` → 9; undefined for a name not in the table. */
export function signalNumber(signal: string): number | undefined {
  const index = (linuxSignals as readonly string[]).indexOf(signal);
  return index < 0 ? undefined : index + 1;
}

/**
 * The one classification both command paths share. Our own stops come first (cancel, timeout), then
 * what the engine said (out of memory, engine gone, container removed or stopped); anything else is
 * the command's own result, with the signal named when it died of one. Returns the error rather than
 * throwing it, so callers and tests see which.
 */
export function commandOutcomeResult(
  outcome: CommandOutcome,
  limits: CommandOutcomeLimits,
): CommandResult | SandboxError {
  const partial = { stdout: outcome.stdout, stderr: outcome.stderr, durationMs: outcome.durationMs };
  const signal = outcome.signal ?? signalOfExitCode(outcome.exitCode);
  const signalCode = signal === undefined ? undefined : signalNumber(signal);
  const exitCode = outcome.exitCode ?? (signalCode === undefined ? undefined : 128 + signalCode);
  const known = exitCode === undefined ? {} : { exitCode };
  const after = `after ${Math.round(outcome.durationMs)} ms`;
  if (outcome.cancelled) {
    return new SandboxError(
      'exec-cancelled',
      `the command was cancelled ${after} and killed with its child processes`,
      { details: partial },
    );
  }
  if (outcome.timedOut) {
    return new SandboxError(
      'exec-timeout',
      `the command ran longer than ${limits.timeoutMs} ms and was killed with its child processes`,
      { details: { ...partial, timeoutMs: limits.timeoutMs } },
    );
  }
  if (outcome.oomKilled) {
    return new SandboxError(
      'out-of-memory',
      `the kernel's out-of-memory killer stopped the command: the sandbox's processes may use ` +
        `${limits.memoryBytes} bytes of memory (exit ${exitCode ?? 137})`,
      { details: { ...partial, exitCode: exitCode ?? 137 } },
    );
  }
  if (!outcome.engineReachable) {
    return new SandboxError(
      'engine-unavailable',
      `the Docker engine stopped answering while the command ran (${after}): it was stopped or ` +
        `restarted, or its socket went away. Not out of memory; what the command finished is unknown, ` +
        `and the sandbox's /workspace may be gone`,
      { details: { ...partial, ...known } },
    );
  }
  if (outcome.containerState === 'missing') {
    return new SandboxError(
      'container-missing',
      `the sandbox container was removed while the command ran (${after}; by an operator, a prune or ` +
        `the idle reaper): the command was killed and /workspace is gone. The next command starts in a ` +
        `fresh, empty sandbox`,
      { details: { ...partial, ...known, commandStarted: true } },
    );
  }
  if (outcome.containerState === 'stopped') {
    return new SandboxError(
      'container-stopped',
      `the sandbox container stopped while the command ran (${after}; stopped or killed from outside, ` +
        `or its engine restarted): the command was killed with it, not for memory, and /workspace is ` +
        `gone. The next command starts in a fresh, empty sandbox`,
      { details: { ...partial, ...known, commandStarted: true } },
    );
  }
  if (exitCode === undefined) {
    return new SandboxError(
      'engine-error',
      `the engine did not report how the command ended (${after}); its output so far is attached`,
      { details: partial },
    );
  }
  return { exitCode, ...(signal === undefined ? {} : { signal }), ...partial };
}
