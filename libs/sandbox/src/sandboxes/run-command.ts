import { randomUUID } from 'node:crypto';
import { type Duplex } from 'node:stream';
import { z } from 'zod';
import { type SandboxConfig } from '../config/sandbox-config';
import { type CapturedStream, OutputDemultiplexer } from '../engine/demultiplex-output';
import { type EngineClient } from '../engine/engine-client';
import { toSandboxError } from '../engine/map-engine-error';
import { SandboxError, isSandboxError } from '../engine/sandbox-error';
import { execMarkerVariable, killExecTreeScript } from './kill-exec-tree';
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

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: CapturedStream;
  readonly stderr: CapturedStream;
  readonly durationMs: number;
}

/** Exit status of a process killed by SIGKILL: the OOM killer, or our own timeout kill. */
const killedExitCode = 137;
/** After the tree is killed, how long the engine gets to close the stream. */
const streamCloseGraceMs = 5000;
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
 * `exec-cancelled` is thrown. A SIGKILL that the cgroup's OOM counter confirms becomes `out-of-memory`.
 */
export async function runCommand(
  engine: EngineClient,
  config: SandboxConfig,
  containerId: string,
  input: RunCommandInput,
  oomKills: { read(): number; write(count: number): void },
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
  if (signal?.aborted === true) throw cancelled(0);
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
  const finished = collect(stream, output);

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
  const durationMs = performance.now() - started;
  const partial = { stdout: output.stdout(), stderr: output.stderr(), durationMs };
  if (stoppedBy === 'cancelled') throw cancelled(durationMs, partial);
  if (stoppedBy === 'timeout') {
    throw new SandboxError(
      'exec-timeout',
      `the command ran longer than ${timeoutMs} ms and was killed with its child processes`,
      {
        details: { ...partial, timeoutMs },
      },
    );
  }
  const exitCode = (await engine.execExitCode(engineExecId)) ?? -1;
  if (exitCode === killedExitCode && (await wasOomKilled(engine, containerId, oomKills))) {
    throw new SandboxError(
      'out-of-memory',
      `the command was killed for using more than the sandbox's ${config.limits.memoryBytes} bytes of memory (exit 137)`,
      { details: { ...partial, exitCode } },
    );
  }
  return { exitCode, ...partial };
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

function cancelled(durationMs: number, partial: Record<string, unknown> = {}): SandboxError {
  return new SandboxError(
    'exec-cancelled',
    `the command was cancelled after ${Math.round(durationMs)} ms and killed with its child processes`,
    { details: partial },
  );
}

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

/** Compares the cgroup's OOM-kill counter with the last value seen for this container. */
async function wasOomKilled(
  engine: EngineClient,
  containerId: string,
  oomKills: { read(): number; write(count: number): void },
): Promise<boolean> {
  try {
    const { stream } = await engine.startExec(containerId, {
      command: ['cat', '/sys/fs/cgroup/memory/memory.oom_control', '/sys/fs/cgroup/memory.events'],
    });
    const output = new OutputDemultiplexer(4096);
    await collect(stream, output);
    const match = /oom_kill (\d+)/.exec(output.stdout().text);
    if (!match) return true; // no counter to read: 137 is the OOM killer's signature
    const count = Number(match[1]);
    const increased = count > oomKills.read();
    oomKills.write(count);
    return increased;
  } catch {
    return true;
  }
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref());
}
