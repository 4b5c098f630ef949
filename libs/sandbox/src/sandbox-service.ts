import { AsyncLocalStorage } from 'node:async_hooks';
import { type SandboxConfigInput, type SandboxConfig, parseSandboxConfig } from './config/sandbox-config';
import { EngineClient, type EngineEndpoint } from './engine/engine-client';
import { SandboxError } from './engine/sandbox-error';
import { type BuildHandle, type BuildRecord, type EnsureImageResult } from './image/build-handle';
import { type BuildLock } from './image/build-lock';
import { type BuildCause, type BuildStartedListener } from './image/build-cause';
import { type PinReport } from './image/ensure-image-pin';
import { type PinCheck } from './image/pin-keeper';
import { readImageStatus, type ImageStatus } from './image/image-status';
import { SandboxImage, type RestoreBaseImage } from './image/sandbox-image';
import { consoleLogger, type SandboxLogger } from './logger';
import { CommandExecutor } from './runner/command-executor';
import { type CommandResult, type RunCommandInput } from './sandboxes/run-command';
import { SessionContainers, type SandboxContainerInfo } from './sandboxes/session-containers';
import { WarmPool } from './sandboxes/warm-pool';
import {
  type ListFilesOptions,
  type WorkspaceEntry,
  type WorkspaceFile,
  listWorkspaceFiles,
  readWorkspaceFile,
  writeWorkspaceFile,
} from './sandboxes/workspace-files';

export interface SandboxServiceOptions {
  /** An engine client, or where to find one (default: the default socket). */
  readonly engine?: EngineClient | EngineEndpoint;
  readonly lock?: BuildLock;
  readonly restoreBaseImage?: RestoreBaseImage;
  readonly logger?: SandboxLogger;
  /** Told when a session's sandbox needed the image and this process started building it. */
  readonly onBuildStarted?: BuildStartedListener;
}

/** What a session's tools call: everything runs in that session's own container. */
export interface SessionSandbox {
  readonly sessionId: string;
  /** Runs a command; aborting `signal` kills it (with its child processes) and rejects with `exec-cancelled`. */
  exec(input: RunCommandInput, signal?: AbortSignal): Promise<CommandResult>;
  readFile(path: string): Promise<WorkspaceFile>;
  writeFile(path: string, content: Buffer | string): Promise<{ path: string; bytes: number }>;
  listFiles(options?: ListFilesOptions): Promise<{ entries: WorkspaceEntry[]; truncated: boolean }>;
  /**
   * Once: what the session's next tool result must say about its sandbox changing under it (moved
   * to a new image, workspace lost because the container was stopped or removed); else undefined.
   */
  takeNotice(): string | undefined;
}

/**
 * The public face of libs/sandbox: the image (ensure, rebuild with a replayable log, re-pin,
 * status), per-session sandboxes, the warm pool, the idle reaper and the start-up reconciler.
 */
export class SandboxService {
  readonly config: SandboxConfig;
  readonly engine: EngineClient;
  private readonly image: SandboxImage;
  private readonly pool: WarmPool;
  private readonly containers: SessionContainers;
  private readonly logger: SandboxLogger;
  private readonly oomKills = new Map<string, number>();
  /** Commands go through each container's runner (or a Docker exec on images without one). */
  private readonly commands: CommandExecutor;
  private reaperTimer: NodeJS.Timeout | undefined;
  private readonly onBuildStarted: BuildStartedListener | undefined;
  /**
   * The session whose container is being acquired. SessionContainers asks for the current image id
   * without saying for whom: a build started there is reported with this session, and the pin check
   * begun there is awaited once the container is handed out (it runs beside the hand-out).
   */
  private readonly acquiringFor = new AsyncLocalStorage<AcquireScope>();

  constructor(config: SandboxConfigInput, options: SandboxServiceOptions = {}) {
    this.config = parseSandboxConfig(config);
    this.engine =
      options.engine instanceof EngineClient ? options.engine : new EngineClient(options.engine ?? {});
    this.logger = options.logger ?? consoleLogger;
    this.onBuildStarted = options.onBuildStarted;
    this.commands = new CommandExecutor(this.engine, this.config, this.logger);
    this.pool = new WarmPool(this.engine, this.config, this.logger, (containerId) =>
      this.commands.warm(containerId),
    );
    this.image = new SandboxImage(this.engine, this.config, {
      logger: this.logger,
      ...(options.lock ? { lock: options.lock } : {}),
      ...(options.restoreBaseImage ? { restoreBaseImage: options.restoreBaseImage } : {}),
      onImageBuilt: (imageId) => {
        this.containers.forgetImageTag();
        void this.pool.replaceAll(imageId);
      },
    });
    this.containers = new SessionContainers(
      this.engine,
      this.config,
      this.pool,
      () => this.currentImageId(),
      this.logger,
      (containerId) => this.commands.hasOpenRunner(containerId),
    );
  }

  /**
   * Ensures the image and pins, then starts the background work: the warm pool and the idle reaper.
   * Throws like `ensureSandboxImage`; the API calls it in the background and keeps serving.
   */
  async start(): Promise<EnsureImageResult> {
    const result = await this.ensureSandboxImage();
    await this.pool.adopt(result.imageId);
    void this.pool.fill(result.imageId);
    if (this.config.reaperIntervalMs > 0 && !this.reaperTimer) {
      this.reaperTimer = setInterval(() => {
        this.reapIdle().catch((error: Error) => this.logger.warn(`[sandbox] reaper: ${error.message}`));
      }, this.config.reaperIntervalMs);
      this.reaperTimer.unref();
    }
    this.image.pins.startReconciling();
    return result;
  }

  /** Stops the background work; `removePool` also removes the unassigned warm containers. */
  async close(options: { removePool?: boolean } = {}): Promise<void> {
    clearInterval(this.reaperTimer);
    this.reaperTimer = undefined;
    this.image.pins.stopReconciling();
    await this.pool.close({ removeContainers: options.removePool ?? false });
    this.commands.close();
  }

  ping(): Promise<void> {
    return this.engine.ping();
  }

  /** Inspect → current? pin : build → pin. Concurrent callers share one run. */
  ensureSandboxImage(options: { force?: boolean } = {}): Promise<EnsureImageResult> {
    return this.image.ensure(options);
  }

  /** Starts (or joins) a rebuild and returns its handle at once (events replay from the start). */
  rebuild(options: { force?: boolean } = { force: true }): BuildHandle {
    return this.image.start(options);
  }

  build(id: string): BuildHandle | undefined {
    return this.image.build(id);
  }

  builds(): BuildRecord[] {
    return this.image.builds();
  }

  /**
   * The seed's `_ensure_image_pin`, for both pins (image and base): never throws; reports the image
   * pin's pinned / already-pinned / no-image / failed (`checkPins` reports both).
   */
  repin(): Promise<PinReport> {
    return this.image.repin();
  }

  /** Re-checks both pins now (missing, stopped or on another image id → re-created); never throws. */
  checkPins(): Promise<PinCheck> {
    return this.image.pins.check({ fresh: true });
  }

  imageStatus(): Promise<ImageStatus> {
    return readImageStatus(this.engine, this.config, this.image);
  }

  warmPoolSize(): number {
    return this.pool.size;
  }

  /** Fills the warm pool now (tests, benchmarks); normally it refills itself in the background. */
  async fillWarmPool(): Promise<void> {
    await this.pool.fill(await this.currentImageId());
  }

  forSession(sessionId: string): SessionSandbox {
    const use = <T>(run: (containerId: string) => Promise<T>) => {
      const scope: AcquireScope = { sessionId };
      return this.acquiringFor.run(scope, () =>
        this.containers.use(sessionId, async (containerId) => {
          await scope.pinsChecked;
          return run(containerId);
        }),
      );
    };
    return {
      sessionId,
      exec: (input, signal) =>
        use((containerId) =>
          this.commands.run(
            containerId,
            input,
            {
              read: () => this.oomKills.get(containerId) ?? 0,
              write: (count) => this.oomKills.set(containerId, count),
            },
            signal,
          ),
        ),
      readFile: (path) =>
        use((containerId) => readWorkspaceFile(this.engine, this.config, containerId, path)),
      writeFile: (path, content) =>
        use((containerId) => writeWorkspaceFile(this.engine, this.config, containerId, path, content)),
      listFiles: (options) => use((containerId) => listWorkspaceFiles(this.engine, containerId, options)),
      takeNotice: () => this.containers.takeNotice(sessionId),
    };
  }

  /** The session's container id, creating it (or taking one from the pool) when needed. */
  async acquireContainer(sessionId: string): Promise<string> {
    const scope: AcquireScope = { sessionId };
    const containerId = await this.acquiringFor.run(scope, () => this.containers.acquire(sessionId));
    await scope.pinsChecked;
    return containerId;
  }

  /** Deleting a session removes its sandbox. */
  removeSession(sessionId: string): Promise<void> {
    return this.containers.remove(sessionId);
  }

  /** Our session and warm-pool containers. The pins are not among them: `imageStatus` shows them. */
  async listContainers(): Promise<SandboxContainerInfo[]> {
    return (await this.containers.list()).filter((container) => !this.isPin(container));
  }

  /** The pin's name when `idOrName` is one of our pins (by id or name), else undefined. */
  async pinOf(idOrName: string): Promise<string | undefined> {
    const pin = (await this.containers.list()).find(
      (container) => this.isPin(container) && (container.id === idOrName || container.name === idOrName),
    );
    return pin?.name;
  }

  /**
   * Removes one of our session or pool containers by id or name; anyone else's is reported as
   * missing, never touched. A pin is refused: removing it is what lets a prune take the image.
   */
  async removeContainer(id: string): Promise<void> {
    const ours = (await this.containers.list()).find(
      (container) => container.id === id || container.name === id,
    );
    if (!ours)
      throw new SandboxError('container-missing', `no AgentDesk sandbox container ${id} on this engine`);
    if (this.isPin(ours)) {
      throw new SandboxError(
        'invalid-input',
        `${ours.name} is a pin: it keeps the sandbox image through prunes and is re-created by every ensure; re-pin instead`,
      );
    }
    await this.engine.removeContainer(ours.id);
  }

  reapIdle(now?: number): Promise<string[]> {
    return this.containers.reapIdle(now);
  }

  /** Removes our session containers whose session is gone; `existingSessions` answers from the database. */
  reconcile(existingSessions: (sessionIds: string[]) => Promise<ReadonlySet<string>>): Promise<string[]> {
    return this.containers.reconcile(existingSessions);
  }

  /**
   * Asked whenever a session's sandbox is created (warm or cold), which also refills the pool: the
   * pins are looked at on the way (two inspects beside the tag lookup, shared by concurrent
   * sessions), so a pin removed or stopped behind our back is back by the next new session. For a
   * session the check goes on beside the hand-out, and its first command waits for it to end.
   */
  private async currentImageId(): Promise<string> {
    const pins = this.image.pins.look();
    const image = await this.engine.inspectImage(this.config.tag);
    if (!image) return (await this.ensureForSession()).imageId; // the ensure pins both
    const checked = this.image.pins.confirm(pins, image.Id);
    const scope = this.acquiringFor.getStore();
    if (scope) scope.pinsChecked = checked;
    else await checked;
    return image.Id;
  }

  /** The image is missing on a session's path: build it, and report the build as the session's. */
  private async ensureForSession(): Promise<EnsureImageResult> {
    const { handle, started } = this.image.startOrJoin();
    const sessionId = this.acquiringFor.getStore()?.sessionId;
    if (started && sessionId !== undefined)
      this.reportBuildStarted(handle, { trigger: 'session', sessionId });
    const outcome = await handle.done;
    if (outcome.status === 'failed') throw outcome.error;
    return outcome;
  }

  private reportBuildStarted(handle: BuildHandle, cause: BuildCause): void {
    const failed = (error: unknown) =>
      this.logger.warn(
        `[sandbox] onBuildStarted for build ${handle.id}: ${error instanceof Error ? error.message : String(error)}`,
      );
    try {
      void Promise.resolve(this.onBuildStarted?.(handle, cause)).catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  private isPin(container: SandboxContainerInfo): boolean {
    return (
      container.role === 'pin' ||
      container.name === this.config.pinName ||
      container.name === this.config.basePinName
    );
  }
}

/** What one acquire of a session's container carries through SessionContainers (see `acquiringFor`). */
interface AcquireScope {
  readonly sessionId: string;
  /** The pin check begun while choosing the container's image; never rejects. */
  pinsChecked?: Promise<void>;
}
