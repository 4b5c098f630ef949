import { type CapturedStream } from '../engine/demultiplex-output';
import { type AttachedExec, type EngineClient } from '../engine/engine-client';
import {
  type ExitReport,
  FrameDecoder,
  FrameKind,
  type StartRequest,
  encodeFrame,
  encodeJsonFrame,
} from './runner-frames';
import { RUNNER_PATH, RUNNER_VERSION } from './runner-program';
import { WORKSPACE_PATH } from '../sandboxes/container-spec';

/** What one command produced, as the runner reported it. */
export interface RunnerOutcome {
  readonly report: ExitReport;
  readonly stdout: CapturedStream;
  readonly stderr: CapturedStream;
  readonly durationMs: number;
}

/** The runner's stream ended (container stopped or removed, engine gone, runner killed) mid-command. */
export class RunnerLostError extends Error {
  override readonly name = 'RunnerLostError';

  constructor(
    message: string,
    /** What the command had printed before the stream ended. */
    readonly partial?: { stdout: CapturedStream; stderr: CapturedStream; durationMs: number },
  ) {
    super(message);
  }
}

/** How long a new runner gets to say it is ready (Node starts in ~50 ms; a loaded engine is slower). */
const readyTimeoutMs = 15_000;

interface InFlight {
  readonly maxOutputBytes: number;
  readonly started: number;
  readonly stdout: Buffer[];
  readonly stderr: Buffer[];
  resolve(outcome: RunnerOutcome): void;
  reject(error: Error): void;
}

/**
 * One attached stream to the runner inside one container. Commands are multiplexed over it by id;
 * each resolves with its exit report and output (the runner already capped it), or rejects with
 * `RunnerLostError` when the stream ends first.
 */
export class RunnerConnection {
  private readonly decoder = new FrameDecoder();
  private readonly inFlight = new Map<number, InFlight>();
  private nextId = 1;
  private open = true;

  private constructor(
    private readonly exec: AttachedExec,
    readonly containerId: string,
  ) {}

  /**
   * Starts the runner in a container. Resolves `undefined` when the container's image has no runner
   * (an image built before it existed): the stream ends without the ready frame, and the caller
   * uses `docker exec` instead. Engine failures (unreachable, container gone) reject as SandboxError.
   */
  static async start(engine: EngineClient, containerId: string): Promise<RunnerConnection | undefined> {
    const exec = await engine.startAttachedExec(containerId, {
      command: ['node', RUNNER_PATH],
      workingDirectory: WORKSPACE_PATH,
    });
    return RunnerConnection.attach(exec, containerId);
  }

  /** Speaks to a runner over an already started stream; `undefined` when no runner answers on it. */
  static async attach(exec: AttachedExec, containerId: string): Promise<RunnerConnection | undefined> {
    const connection = new RunnerConnection(exec, containerId);
    const ready = await connection.awaitReady();
    if (!ready) {
      exec.destroy();
      return undefined;
    }
    return connection;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Resolves when the stream has ended (the container went away, or `close`). */
  get closed(): Promise<void> {
    return this.exec.closed;
  }

  /** Runs one command; `cancel` kills its tree (the report then says `cancelled`). */
  run(request: StartRequest): { outcome: Promise<RunnerOutcome>; cancel(): void } {
    const id = this.nextId++;
    const outcome = new Promise<RunnerOutcome>((resolve, reject) => {
      if (!this.open) {
        reject(new RunnerLostError('the sandbox command runner is not running'));
        return;
      }
      this.inFlight.set(id, {
        maxOutputBytes: request.maxOutputBytes,
        started: performance.now(),
        stdout: [],
        stderr: [],
        resolve,
        reject,
      });
      this.exec.stdin.write(encodeJsonFrame(FrameKind.start, id, request));
    });
    return {
      outcome,
      cancel: () => {
        if (this.open && this.inFlight.has(id)) this.exec.stdin.write(encodeFrame(FrameKind.kill, id));
      },
    };
  }

  /** Ends the stream; the runner then kills whatever is still running and exits. */
  close(): void {
    this.exec.stdin.end();
    this.exec.destroy();
  }

  private awaitReady(): Promise<boolean> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ready: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(ready);
      };
      const timer = setTimeout(() => settle(false), readyTimeoutMs);
      timer.unref();
      this.exec.stdout.on('data', (chunk: Buffer) => {
        for (const frame of this.decoder.push(chunk)) {
          if (frame.kind === FrameKind.ready) {
            settle(readyVersion(frame.payload) === RUNNER_VERSION);
            continue;
          }
          this.receive(frame.kind, frame.id, frame.payload);
        }
      });
      // The runner writes nothing on stderr unless something is wrong; drain it so it cannot block.
      this.exec.stderr.resume();
      void this.exec.closed.then(() => {
        this.open = false;
        settle(false);
        for (const command of this.inFlight.values()) {
          command.reject(
            new RunnerLostError('the sandbox command runner stopped while the command ran', {
              stdout: captured(command.stdout, bytesOf(command.stdout)),
              stderr: captured(command.stderr, bytesOf(command.stderr)),
              durationMs: performance.now() - command.started,
            }),
          );
        }
        this.inFlight.clear();
      });
    });
  }

  private receive(kind: number, id: number, payload: Buffer): void {
    const command = this.inFlight.get(id);
    if (!command) return;
    if (kind === FrameKind.stdout) command.stdout.push(payload);
    else if (kind === FrameKind.stderr) command.stderr.push(payload);
    else if (kind === FrameKind.exit) {
      this.inFlight.delete(id);
      const report = JSON.parse(payload.toString('utf8')) as ExitReport;
      command.resolve({
        report,
        stdout: captured(command.stdout, report.stdoutBytes ?? 0),
        stderr: captured(command.stderr, report.stderrBytes ?? 0),
        durationMs: report.durationMs ?? performance.now() - command.started,
      });
    }
  }
}

function readyVersion(payload: Buffer): string | undefined {
  try {
    return (JSON.parse(payload.toString('utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function bytesOf(chunks: readonly Buffer[]): number {
  return chunks.reduce((total, chunk) => total + chunk.length, 0);
}

function captured(chunks: readonly Buffer[], totalBytes: number): CapturedStream {
  const kept = Buffer.concat(chunks);
  return {
    text: kept.toString('utf8'),
    totalBytes: Math.max(totalBytes, kept.length),
    truncated: totalBytes > kept.length,
  };
}
