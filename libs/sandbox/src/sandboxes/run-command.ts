import { randomUUID } from 'node:crypto';
import { type Duplex } from 'node:stream';
import { z } from 'zod';
import { type SandboxConfig } from '../config/sandbox-config';
import { OutputDemultiplexer } from '../engine/demultiplex-output';
import { type EngineClient } from '../engine/engine-client';
import { toSandboxError } from '../engine/map-engine-error';
import { SandboxError, isSandboxError } from '../engine/sandbox-error';
import {
  type CommandOutcome,
  type CommandOutcomeLimits,
  type CommandResult,
  commandOutcomeResult,
} from './command-outcome';
import { execMarkerVariable, killExecTreeScript } from './kill-exec-tree';
import { type OomKillCount, checkSandboxAfterCommand } from './sandbox-after-command';
import { WORKSPACE_PATH } from './container-spec';

export const runCommandInputSchema = z
  .object({
    /** A shell command line, run by `sh -c` in /workspace. */
    command: z.string().min(1).max(100_000),
    timeoutMs: z.number().int().min(100).optional(),
    maxOutputBytes: z.number().int().min(1).optional(),
  })
  .strict();

export type RunCommandInput = z.input<typeof runCommandInputSchema>;

export { type CommandResult } from './command-outcome';

/** After the tree is killed, how long the engine gets to close the stream. */
const streamCloseGraceMs = 5000;
/** How often, and how far apart, an exit code the engine has not recorded yet is asked again. */
const exitCodeAttempts = 20;
const exitCodeRetryMs = 25;
/**
 * The engine answers an exec's start before its first process exists: a kill sent at once can find
 * nothing and leave the command to run. Until the stream closes, the kill is repeated this often,
 * within the same grace as before.
 */
const killRepeatMs = 250;

/**
 * Runs a shell command in a running sandbox container with a timeout and capped, demultiplexed
 * output. On timeout the command's whole process tree is killed *inside* the container (closing
 * the client stream alone would leave it running) and `exec-timeout` is thrown with the partial
 * output; when `signal` aborts first (the turn was cancelled) the tree is killed the same way and
 * `exec-cancelled` is thrown. A command that ends by a signal, or whose stream ends without an exit
 * code, is explained by asking the engine afterwards (`checkSandboxAfterCommand`): out of memory only
 * when the cgroup's counter says so; engine gone, container removed or stopped each their own error;
 * else the command's own result with the signal named (`commandOutcomeResult`).
 */
export async function runCommand(
  engine: EngineClient,
  config: SandboxConfig,
  containerId: string,
  input: RunCommandInput,
  oomKills: OomKillCount,
  signal?: AbortSignal,
): Promise<CommandResult> {
  const parsed = runCommandInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new SandboxError(
      'invalid-input',
      `run_command input: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const timeoutMs = Math.min(parsed.data.timeoutMs ?? config.exec.timeoutMs, config.exec.maxTimeoutMs);
  const maxOutputBytes = Math.min(
    parsed.data.maxOutputBytes ?? config.exec.maxOutputBytes,
    config.exec.maxOutputBytes,
  );
  const limits = { timeoutMs, memoryBytes: config.limits.memoryBytes };
  if (signal?.aborted === true) {
    return settle(
      {
        exitCode: undefined,
        oomKilled: false,
        timedOut: false,
        cancelled: true,
        engineReachable: true,
        containerState: 'unknown',
        stdout: nothingCaptured,
        stderr: nothingCaptured,
        durationMs: 0,
      },
      limits,
    );
  }
  // Listen before the exec starts: an abort while the engine is still starting it (seconds on a
  // loaded engine) fires no event later, and the command would run on to its timeout.
  const cancellation = listenForAbort(signal);
  const execId = randomUUID();
  // The in-container `timeout` is a backstop for when this process dies before its timer fires.
  const backstopSeconds = Math.ceil(timeoutMs / 1000) + 5;
  const started = performance.now();
  const { execId: engineExecId, stream } = await engine
    .startExec(containerId, {
      command: ['timeout', '-s', 'KILL', String(backstopSeconds), 'sh', '-c', parsed.data.command],
      env: [`${execMarkerVariable}=${execId}`],
      workingDirectory: WORKSPACE_PATH,
    })
    .catch((error: unknown) => {
      cancellation.stop();
      return recoverFromSaturation(engine, containerId, error);
    });
  const output = new OutputDemultiplexer(maxOutputBytes);
  // A stream that errors (the engine went away) ended too: what happened is asked below.
  const finished = collect(stream, output).catch(() => undefined);

  let stoppedBy: 'timeout' | 'cancelled' | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const first = await Promise.race([finished.then(() => 'done' as const), timeout, cancellation.aborted]);
    if (first !== 'done') {
      stoppedBy = first;
      await killUntilClosed(engine, containerId, execId, finished);
      stream.destroy();
    }
  } catch (error) {
    throw toSandboxError(error, `run a command in container ${containerId}`, 'container-missing');
  } finally {
    clearTimeout(timer);
    cancellation.stop();
  }
  const exitCode = stoppedBy ? undefined : await readExitCode(engine, engineExecId);
  // Only an ending by a signal (or none reported) needs explaining; a plain exit code is the answer.
  const after =
    stoppedBy || (exitCode !== undefined && exitCode <= 128)
      ? ({ engineReachable: true, containerState: 'running', oomKilled: false } as const)
      : await checkSandboxAfterCommand(engine, containerId, exitCode, oomKills);
  return settle(
    {
      exitCode,
      ...after,
      timedOut: stoppedBy === 'timeout',
      cancelled: stoppedBy === 'cancelled',
      stdout: output.stdout(),
      stderr: output.stderr(),
      durationMs: performance.now() - started,
    },
    limits,
  );
}

/**
 * The exec's exit code, or undefined when the engine cannot say. The stream can close a moment
 * before the engine has recorded the exit (it still answers "running"), so that is asked again.
 */
async function readExitCode(engine: EngineClient, engineExecId: string): Promise<number | undefined> {
  for (let attempt = 0; attempt < exitCodeAttempts; attempt += 1) {
    try {
      const exitCode = await engine.execExitCode(engineExecId);
      if (exitCode !== null) return exitCode;
    } catch {
      return undefined; // engine gone, or the exec with its container: checkSandboxAfterCommand says which
    }
    await delay(exitCodeRetryMs);
  }
  return undefined;
}

/**
 * A container whose pids (or memory) are all held — by a fork bomb left running in the background —
 * cannot start another exec. Killing it lets the caller retry on a fresh one (`container-missing`
 * is retried once by the session layer); the workspace of a wedged sandbox is lost.
 */
async function recoverFromSaturation(
  engine: EngineClient,
  containerId: string,
  error: unknown,
): Promise<never> {
  if (
    isSandboxError(error, 'engine-error') &&
    /resource temporarily unavailable|cannot allocate memory/i.test(error.message)
  ) {
    await engine.killContainer(containerId);
    throw new SandboxError(
      'container-missing',
      `the sandbox was saturated (${error.message}); it was stopped`,
      {
        cause: error,
      },
    );
  }
  throw error;
}

/** The shared classification's answer: the result, or its error thrown. */
function settle(outcome: CommandOutcome, limits: CommandOutcomeLimits): CommandResult {
  const settled = commandOutcomeResult(outcome, limits);
  if (settled instanceof SandboxError) throw settled;
  return settled;
}

const nothingCaptured = { text: '', totalBytes: 0, truncated: false };

/** Resolves when `signal` aborts (after this call); `stop` stops listening. */
function listenForAbort(signal: AbortSignal | undefined): {
  readonly aborted: Promise<'cancelled'>;
  stop(): void;
} {
  let onAbort = (): void => undefined;
  const aborted = new Promise<'cancelled'>((resolve) => {
    onAbort = () => resolve('cancelled');
  });
  signal?.addEventListener('abort', onAbort, { once: true });
  return { aborted, stop: () => signal?.removeEventListener('abort', onAbort) };
}

function collect(stream: Duplex, output: OutputDemultiplexer): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => output.push(chunk));
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
    stream.once('error', reject);
  });
}

/** Kills the exec's tree, again and again while its stream stays open, for up to the close grace. */
async function killUntilClosed(
  engine: EngineClient,
  containerId: string,
  execId: string,
  finished: Promise<void>,
): Promise<void> {
  // A stream that errors is closed too: the command is being stopped on purpose either way.
  const closed = finished.then(
    () => true,
    () => true,
  );
  const deadline = performance.now() + streamCloseGraceMs;
  do {
    await killTree(engine, containerId, execId);
    if (await Promise.race([closed, delay(killRepeatMs).then(() => false)])) return;
  } while (performance.now() < deadline);
}

async function killTree(engine: EngineClient, containerId: string, execId: string): Promise<void> {
  try {
    const { stream } = await engine.startExec(containerId, {
      command: ['sh', '-c', killExecTreeScript, 'agentdesk-kill', execId],
    });
    await Promise.race([collect(stream, new OutputDemultiplexer(1024)), delay(streamCloseGraceMs)]);
    stream.destroy();
  } catch {
    // The killer could not even start (a fork bomb holding every pid): stop the whole container.
    // The session's next command gets a fresh one.
    await engine.killContainer(containerId);
  }
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref());
}
