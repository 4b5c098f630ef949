import { type SandboxConfigInput, type SandboxConfig, parseSandboxConfig } from './config/sandbox-config';
import { EngineClient, type EngineEndpoint } from './engine/engine-client';
import { SandboxError } from './engine/sandbox-error';
import { type BuildHandle, type BuildRecord, type EnsureImageResult } from './image/build-handle';
import { type BuildLock } from './image/build-lock';
import { type PinReport } from './image/ensure-image-pin';
import { readImageStatus, type ImageStatus } from './image/image-status';
import { SandboxImage, type RestoreBaseImage } from './image/sandbox-image';
import { consoleLogger, type SandboxLogger } from './logger';
import { type CommandResult, type RunCommandInput, runCommand } from './sandboxes/run-command';
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
}

/** What a session's tools call: everything runs in that session's own container. */
export interface SessionSandbox {
  readonly sessionId: string;
  /** Runs a command; aborting `signal` kills it (with its child processes) and rejects with `exec-cancelled`. */
  exec(input: RunCommandInput, signal?: AbortSignal): Promise<CommandResult>;
  readFile(path: string): Promise<WorkspaceFile>;
  writeFile(path: string, content: Buffer | string): Promise<{ path: string; bytes: number }>;
  listFiles(options?: ListFilesOptions): Promise<{ entries: WorkspaceEntry[]; truncated: boolean }>;
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
  private reaperTimer: NodeJS.Timeout | undefined;

  constructor(config: SandboxConfigInput, options: SandboxServiceOptions = {}) {
    this.config = parseSandboxConfig(config);
    this.engine =
      options.engine instanceof EngineClient ? options.engine : new EngineClient(options.engine ?? {});
    this.logger = options.logger ?? consoleLogger;
    this.pool = new WarmPool(this.engine, this.config, this.logger);
    this.image = new SandboxImage(this.engine, this.config, {
      logger: this.logger,
      ...(options.lock ? { lock: options.lock } : {}),
      ...(options.restoreBaseImage ? { restoreBaseImage: options.restoreBaseImage } : {}),
      onImageBuilt: (imageId) => void this.pool.replaceAll(imageId),
    });
    this.containers = new SessionContainers(
      this.engine,
      this.config,
      this.pool,
      () => this.currentImageId(),
      this.logger,
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
    return result;
  }

  /** Stops the background work; `removePool` also removes the unassigned warm containers. */
  async close(options: { removePool?: boolean } = {}): Promise<void> {
    clearInterval(this.reaperTimer);
    this.reaperTimer = undefined;
    await this.pool.close({ removeContainers: options.removePool ?? false });
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

  /** The seed's `_ensure_image_pin`: never throws; reports pinned / already-pinned / no-image / failed. */
  repin(): Promise<PinReport> {
    return this.image.repin();
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
    const use = <T>(run: (containerId: string) => Promise<T>) => this.containers.use(sessionId, run);
    return {
      sessionId,
      exec: (input, signal) =>
        use((containerId) =>
          runCommand(
            this.engine,
            this.config,
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
    };
  }

  /** The session's container id, creating it (or taking one from the pool) when needed. */
  acquireContainer(sessionId: string): Promise<string> {
    return this.containers.acquire(sessionId);
  }

  /** Deleting a session removes its sandbox. */
  removeSession(sessionId: string): Promise<void> {
    return this.containers.remove(sessionId);
  }

  listContainers(): Promise<SandboxContainerInfo[]> {
    return this.containers.list();
  }

  /** Removes one of *our* containers by id; anyone else's is reported as missing, never touched. */
  async removeContainer(id: string): Promise<void> {
    const ours = (await this.containers.list()).find(
      (container) => container.id === id || container.name === id,
    );
    if (!ours)
      throw new SandboxError('container-missing', `no AgentDesk sandbox container ${id} on this engine`);
    await this.engine.removeContainer(ours.id);
  }

  reapIdle(now?: number): Promise<string[]> {
    return this.containers.reapIdle(now);
  }

  /** Removes our session containers whose session is gone; `existingSessions` answers from the database. */
  reconcile(existingSessions: (sessionIds: string[]) => Promise<ReadonlySet<string>>): Promise<string[]> {
    return this.containers.reconcile(existingSessions);
  }

  private async currentImageId(): Promise<string> {
    const image = await this.engine.inspectImage(this.config.tag);
    if (image) return image.Id;
    return (await this.ensureSandboxImage()).imageId;
  }
}
