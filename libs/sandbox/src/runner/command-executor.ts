import { randomUUID } from 'node:crypto';
import { type SandboxConfig } from '../config/sandbox-config';
import { type EngineClient } from '../engine/engine-client';
import { SandboxError } from '../engine/sandbox-error';
import { type SandboxLogger } from '../logger';
import { WORKSPACE_PATH } from '../sandboxes/container-spec';
import { type CommandLimits, type OomKillCounter, commandLimits } from '../sandboxes/command-limits';
import { commandOutcomeResult } from '../sandboxes/command-outcome';
import { checkSandboxAfterCommand } from '../sandboxes/sandbox-after-command';
import { type CommandResult, type RunCommandInput, runCommand } from '../sandboxes/run-command';
import { RunnerConnection, RunnerLostError, type RunnerOutcome } from './runner-connection';

/** A lost runner in a container that still looks running: looks (this far apart) before blaming the runner. */
const lossSettleLooks = 4;
const lossSettleMs = 250;

/** After the timeout, how long the runner gets to report the kill before the API stops waiting. */
const reportGraceMs = 5_000;

/**
 * Runs commands in sandbox containers: through the container's runner when its image has one
 * (one attached stream per container, a few milliseconds per command), else through a Docker exec
 * per command (`runCommand`, images built before the runner existed). Both paths give the same
 * results and the same failure kinds.
 */
export class CommandExecutor {
  private readonly runners = new Map<string, Promise<RunnerConnection | undefined>>();
  /** The runners whose stream is up, by container: read synchronously on every command's hot path. */
  private readonly connected = new Map<string, RunnerConnection>();

  constructor(
    private readonly engine: EngineClient,
    private readonly config: SandboxConfig,
    private readonly logger: SandboxLogger,
  ) {}

  /** Starts a container's runner ahead of its first command (the warm pool calls this). */
  warm(containerId: string): Promise<void> {
    if (!this.config.exec.useRunner) return Promise.resolve();
    return this.runnerFor(containerId).then(
      () => undefined,
      () => undefined,
    );
  }

  async run(
    containerId: string,
    input: RunCommandInput,
    oomKills: OomKillCounter,
    signal?: AbortSignal,
  ): Promise<CommandResult> {
    const limits = commandLimits(this.config, input);
    const runner = this.config.exec.useRunner ? await this.runnerFor(containerId) : undefined;
    if (!runner) return runCommand(this.engine, this.config, containerId, input, oomKills, signal);
    const outcomeLimits = { timeoutMs: limits.timeoutMs, memoryBytes: this.config.limits.memoryBytes };
    if (signal?.aborted === true) {
      resultOrThrow(
        { ...notStarted, exitCode: undefined, oomKilled: false, timedOut: false, cancelled: true },
        outcomeLimits,
      );
    }
    const { outcome, cancel } = runner.run({
      command: limits.command,
      cwd: WORKSPACE_PATH,
      timeoutMs: limits.timeoutMs,
      maxOutputBytes: limits.maxOutputBytes,
      marker: randomUUID(),
    });
    signal?.addEventListener('abort', cancel, { once: true });
    // A backstop for a runner that stops answering: the API never waits much past the timeout.
    let backstop: NodeJS.Timeout | undefined;
    const unanswered = new Promise<never>((_resolve, reject) => {
      backstop = setTimeout(() => {
        this.forget(containerId);
        reject(
          new RunnerLostError(`the command runner did not report within ${reportGraceMs} ms of the timeout`),
        );
      }, limits.timeoutMs + reportGraceMs);
    });
    try {
      return await this.toResult(await Promise.race([outcome, unanswered]), limits, containerId);
    } catch (error) {
      if (error instanceof RunnerLostError) throw await this.explainLoss(containerId, error, limits);
      throw error;
    } finally {
      clearTimeout(backstop);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Whether the container's runner stream is open now (so the container is running). */
  hasOpenRunner(containerId: string): boolean {
    return this.connected.get(containerId)?.isOpen === true;
  }

  /** Closes the runner of a container that is going away. */
  forget(containerId: string): void {
    const runner = this.runners.get(containerId);
    this.runners.delete(containerId);
    this.connected.delete(containerId);
    void runner?.then((connection) => connection?.close()).catch(() => undefined);
  }

  close(): void {
    for (const containerId of [...this.runners.keys()]) this.forget(containerId);
  }

  private runnerFor(containerId: string): Promise<RunnerConnection | undefined> {
    const known = this.runners.get(containerId);
    if (known) {
      return known.then((connection) => {
        if (connection === undefined || connection.isOpen) return connection;
        // Its stream ended (container restarted, runner killed): start a new one.
        if (this.runners.get(containerId) === known) this.runners.delete(containerId);
        return this.runnerFor(containerId);
      });
    }
    const starting = RunnerConnection.start(this.engine, containerId);
    this.runners.set(containerId, starting);
    starting.then(
      (connection) => {
        // A removed container's stream ends: its entry goes with it.
        if (connection !== undefined && this.runners.get(containerId) === starting)
          this.connected.set(containerId, connection);
        void connection?.closed.then(() => {
          if (this.runners.get(containerId) === starting) this.runners.delete(containerId);
          if (this.connected.get(containerId) === connection) this.connected.delete(containerId);
        });
        if (!connection)
          this.logger.info(
            `[sandbox] container ${containerId.slice(0, 12)} has no command runner: using docker exec`,
          );
      },
      () => {
        if (this.runners.get(containerId) === starting) this.runners.delete(containerId);
      },
    );
    return starting;
  }

  private async toResult(
    outcome: RunnerOutcome,
    limits: CommandLimits,
    containerId: string,
  ): Promise<CommandResult> {
    const { report, stdout, stderr, durationMs } = outcome;
    if (report.spawnError !== undefined) {
      if (/EAGAIN|ENOMEM|resource temporarily unavailable/i.test(report.spawnError)) {
        // Every pid (or all memory) is held, by a fork bomb left in the background: as on the exec
        // path, the container is stopped and the session layer retries once on a fresh one.
        this.forget(containerId);
        await this.engine.killContainer(containerId);
        throw new SandboxError(
          'container-missing',
          `the sandbox was saturated (${report.spawnError}); it was stopped`,
        );
      }
      throw new SandboxError('engine-error', `the command could not be started: ${report.spawnError}`);
    }
    // A shell that died of a signal may have died with its container (`docker stop`, `rm -f`, an
    // engine shutting down kill the command a moment before the runner): ask the engine, as the
    // exec path does. The runner has already read the OOM counter, so only the state is checked.
    const signalled =
      (report.exitCode ?? 0) > 128 && !report.timedOut && !report.cancelled && !report.oomKilled;
    const after = signalled
      ? await checkSandboxAfterCommand(this.engine, containerId, undefined, noOomRead)
      : { engineReachable: true, containerState: 'running' as const, oomKilled: false };
    return resultOrThrow(
      {
        exitCode: report.exitCode,
        signal: report.signal,
        oomKilled: report.oomKilled === true || after.oomKilled,
        timedOut: report.timedOut === true,
        cancelled: report.cancelled === true,
        engineReachable: after.engineReachable,
        containerState: after.containerState,
        stdout,
        stderr,
        durationMs,
      },
      { timeoutMs: limits.timeoutMs, memoryBytes: this.config.limits.memoryBytes },
    );
  }

  /** The runner's stream ended mid-command: say what really happened to the engine or container. */
  private async explainLoss(
    containerId: string,
    lost: RunnerLostError,
    limits: CommandLimits,
  ): Promise<SandboxError> {
    this.forget(containerId);
    let after = await checkSandboxAfterCommand(this.engine, containerId, undefined, noOomRead);
    // `docker rm -f` / `stop` can end the runner's stream a moment before the engine shows the
    // container as removing or stopped: look again for a second before blaming the runner alone.
    for (
      let look = 0;
      look < lossSettleLooks && after.engineReachable && after.containerState === 'running';
      look++
    ) {
      await new Promise((resolve) => setTimeout(resolve, lossSettleMs));
      after = await checkSandboxAfterCommand(this.engine, containerId, undefined, noOomRead);
    }
    if (after.engineReachable && after.containerState === 'running') {
      // Only the runner died (killed from inside the sandbox): the next command starts a new one.
      return new SandboxError('engine-error', lost.message, { cause: lost, details: { ...lost.partial } });
    }
    const partial = lost.partial ?? { stdout: emptyStream, stderr: emptyStream, durationMs: 0 };
    const outcome = commandOutcomeResult(
      { exitCode: undefined, timedOut: false, cancelled: false, ...after, ...partial },
      { timeoutMs: limits.timeoutMs, memoryBytes: this.config.limits.memoryBytes },
    );
    return outcome instanceof SandboxError
      ? outcome
      : new SandboxError('engine-error', lost.message, { cause: lost, details: { ...partial } });
  }
}

/** The runner reads the OOM counter itself; the after-command check is only asked for the state. */
const noOomRead = { read: () => 0, write: () => undefined };

const emptyStream = { text: '', totalBytes: 0, truncated: false } as const;
const notStarted = {
  engineReachable: true,
  containerState: 'running',
  stdout: emptyStream,
  stderr: emptyStream,
  durationMs: 0,
} as const;

function resultOrThrow(...args: Parameters<typeof commandOutcomeResult>): CommandResult {
  const result = commandOutcomeResult(...args);
  if (result instanceof SandboxError) throw result;
  return result;
}
