/**
 * Why a sandbox operation failed. Callers switch on the code (the API maps each to one HTTP
 * answer or one tool result); they never see a raw dockerode error.
 */
export type SandboxErrorCode =
  /** No engine answers at the configured socket/host (ENOENT, ECONNREFUSED, reset, timeout). */
  | 'engine-unavailable'
  /** The engine answered with an error we have no better code for. */
  | 'engine-error'
  /** The sandbox image (or its base) is not present on the engine. */
  | 'image-missing'
  /** An image build failed; the previous image and tag are untouched. */
  | 'build-failed'
  /**
   * The container is gone (removed by hand, reaped, pruned). With `details.commandStarted` it went
   * while a command ran: that command is not run again elsewhere.
   */
  | 'container-missing'
  /**
   * The container stopped while a command ran (`docker stop`/`kill`, a daemon restart): the command
   * was killed with it and the workspace (a tmpfs) is gone.
   */
  | 'container-stopped'
  /** A command ran past its timeout; its process tree was killed inside the container. */
  | 'exec-timeout'
  /** The caller gave up (the turn was cancelled); the command's process tree was killed inside the container. */
  | 'exec-cancelled'
  /**
   * The kernel's out-of-memory killer killed the command: only when the container's cgroup OOM-kill
   * counter went up (or the engine reports `State.OOMKilled`), never inferred from exit 137 alone.
   */
  | 'out-of-memory'
  /** A path outside /workspace, or one that is not a plain relative file path. */
  | 'invalid-path'
  /** No such file or directory in the workspace. */
  | 'file-not-found'
  /** A file over the configured size limit. */
  | 'file-too-large'
  /** A session id, command or option that does not pass validation. */
  | 'invalid-input';

/** The one error type of libs/sandbox. */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';

  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Readonly<Record<string, unknown>> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.details = options?.details ?? {};
  }

  /** Context for logs and tool results (exit code, partial output, engine text, …). */
  readonly details: Readonly<Record<string, unknown>>;
}

export function isSandboxError(error: unknown, code?: SandboxErrorCode): error is SandboxError {
  return error instanceof SandboxError && (code === undefined || error.code === code);
}
