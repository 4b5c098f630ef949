import { type SandboxConfig } from '../config/sandbox-config';
import { type EngineClient, type ImageInspectInfo } from '../engine/engine-client';
import { SandboxError, isSandboxError } from '../engine/sandbox-error';
import { type SandboxLogger } from '../logger';
import { BuildHandle, type BuildOutcome, type BuildRecord, type EnsureImageResult } from './build-handle';
import { renderBuildContext, imageLabels, type BuildContext } from './build-context';
import { type BuildLock, inProcessBuildLock } from './build-lock';
import { type PinReport } from './ensure-image-pin';
import { PinKeeper } from './pin-keeper';
import { runImageBuild } from './run-image-build';

/** Puts a missing base image back (offline: `buildOfflineBaseImage`; production: a pull). */
export type RestoreBaseImage = (engine: EngineClient, reference: string) => Promise<void>;

export interface SandboxImageOptions {
  /** Serializes builds across processes (the API backs it with a PostgreSQL advisory lock). */
  readonly lock?: BuildLock;
  readonly restoreBaseImage?: RestoreBaseImage;
  readonly logger: SandboxLogger;
  /** Called after a build moved the tag, so the warm pool can replace its containers. */
  readonly onImageBuilt?: (imageId: string) => void;
}

/** How many finished builds `builds()` keeps in memory (the API persists its own history). */
const buildHistoryLimit = 50;

/**
 * The sandbox image: ensure (inspect → current? pin : build → pin), forced rebuilds, re-pins.
 * Concurrent callers in this process share one run; across processes the lock serializes builds
 * and the re-check inside it turns the losers into "current".
 */
export class SandboxImage {
  /** Both pins, re-checked by every ensure, re-pin and new session, and periodically. */
  readonly pins: PinKeeper;
  private inFlight: BuildHandle | undefined;
  private readonly history: BuildHandle[] = [];
  private readonly context: BuildContext;
  private readonly lock: BuildLock;
  /** The last failure logged: a caller retrying into the same failure (a broken base) logs it once. */
  private loggedFailure: string | undefined;

  constructor(
    private readonly engine: EngineClient,
    private readonly config: SandboxConfig,
    private readonly options: SandboxImageOptions,
  ) {
    this.context = renderBuildContext(config);
    this.lock = options.lock ?? inProcessBuildLock;
    this.pins = new PinKeeper(engine, config, options.logger);
  }

  get contentHash(): string {
    return this.context.contentHash;
  }

  /** Ensures the image and its pins; throws `build-failed` (old image kept) or `engine-unavailable`. */
  async ensure(options: { force?: boolean } = {}): Promise<EnsureImageResult> {
    const outcome = await this.start(options).done;
    if (outcome.status === 'failed') throw outcome.error;
    return outcome;
  }

  /** Starts (or joins) a run and returns its handle at once; the log replays for late viewers. */
  start(options: { force?: boolean } = {}): BuildHandle {
    return this.startOrJoin(options).handle;
  }

  /** Like `start`, telling whether this call started the run (a joined run was someone else's). */
  startOrJoin(options: { force?: boolean } = {}): { handle: BuildHandle; started: boolean } {
    if (this.inFlight && !this.inFlight.isFinished) return { handle: this.inFlight, started: false };
    const handle = new BuildHandle(this.config.tag, options.force ?? false, (run) => this.run(run));
    this.inFlight = handle;
    this.history.unshift(handle);
    this.history.splice(buildHistoryLimit);
    return { handle, started: true };
  }

  build(id: string): BuildHandle | undefined {
    return this.history.find((handle) => handle.id === id);
  }

  builds(): BuildRecord[] {
    return this.history.map((handle) => handle.record());
  }

  /** The seed's `_ensure_image_pin`, for both pins: never throws; reports the image pin. */
  async repin(): Promise<PinReport> {
    return (await this.pins.check({ fresh: true })).pin;
  }

  /** True when the tag exists and carries this version and this build context's hash. */
  isCurrent(image: ImageInspectInfo | undefined): image is ImageInspectInfo {
    const labels = image?.Config?.Labels ?? {};
    return (
      image !== undefined &&
      labels[imageLabels.version] === this.config.agentdeskVersion &&
      labels[imageLabels.contentHash] === this.context.contentHash
    );
  }

  private async run(handle: BuildHandle): Promise<BuildOutcome> {
    try {
      const outcome = await this.ensureOrBuild(handle);
      this.loggedFailure = undefined;
      return outcome;
    } catch (error) {
      const failure = isSandboxError(error)
        ? error
        : new SandboxError('build-failed', `sandbox image build failed: ${String(error)}`, { cause: error });
      handle.emit({ type: 'error', at: Date.now(), message: failure.message });
      handle.emit({ type: 'build-end', at: Date.now(), status: 'failed' });
      if (failure.message !== this.loggedFailure) {
        this.options.logger.warn(`[sandbox] ensure image ${this.config.tag} failed: ${failure.message}`);
      }
      this.loggedFailure = failure.message;
      return { status: 'failed', buildId: handle.id, error: failure };
    }
  }

  private async ensureOrBuild(handle: BuildHandle): Promise<EnsureImageResult> {
    const existing = await this.engine.inspectImage(this.config.tag);
    handle.noteImageBefore(existing?.Id);
    if (!handle.force && this.isCurrent(existing)) return this.finishCurrent(handle, existing);
    return this.lock.withLock(`agentdesk-sandbox-image:${this.config.tag}`, async () => {
      // Another replica may have built it while we waited for the lock.
      const afterLock = await this.engine.inspectImage(this.config.tag);
      if (!handle.force && this.isCurrent(afterLock)) return this.finishCurrent(handle, afterLock);
      return this.buildAndPin(handle, afterLock);
    });
  }

  private async finishCurrent(handle: BuildHandle, image: ImageInspectInfo): Promise<EnsureImageResult> {
    // Keep it prune-proof even when no rebuild is needed.
    const { pin, basePin } = await this.pins.check({ fresh: true });
    handle.emit({ type: 'build-end', at: Date.now(), status: 'current', imageId: image.Id });
    return {
      status: 'current',
      buildId: handle.id,
      tag: this.config.tag,
      imageId: image.Id,
      contentHash: this.context.contentHash,
      pin,
      basePin,
    };
  }

  private async buildAndPin(
    handle: BuildHandle,
    previous: ImageInspectInfo | undefined,
  ): Promise<EnsureImageResult> {
    handle.emit({
      type: 'build-start',
      at: Date.now(),
      tag: this.config.tag,
      reason: this.buildReason(handle.force, previous),
    });
    await this.ensureBaseImage(handle);
    const imageId = await runImageBuild(this.engine, this.config, this.context, handle);
    // Pin the freshly built image so a prune cannot drop the tag (the old pin ran the old id).
    const { pin, basePin } = await this.pins.check({ fresh: true });
    handle.emit({ type: 'build-end', at: Date.now(), status: 'built', imageId });
    this.options.logger.info(`[sandbox] built ${this.config.tag} → ${imageId}`);
    this.options.onImageBuilt?.(imageId);
    return {
      status: 'built',
      buildId: handle.id,
      tag: this.config.tag,
      imageId,
      ...(previous ? { previousImageId: previous.Id } : {}),
      contentHash: this.context.contentHash,
      pin,
      basePin,
    };
  }

  /**
   * `docker system prune -af` removes the base image tag (no container runs it), and a legacy build
   * would then try to pull it. The base pin prevents that; this restores it if it happened anyway.
   */
  private async ensureBaseImage(handle: BuildHandle): Promise<void> {
    const { baseImage } = this.config;
    if (await this.engine.inspectImage(baseImage)) return;
    if (!this.options.restoreBaseImage) {
      throw new SandboxError(
        'image-missing',
        `base image ${baseImage} is not on the engine at ${this.engine.describe()} and no registry is used here: ` +
          'pull or load it, or build the offline base (npm run sandbox:base-image), then rebuild',
      );
    }
    handle.emit({ type: 'line', at: Date.now(), text: `base image ${baseImage} missing: restoring it` });
    await this.options.restoreBaseImage(this.engine, baseImage);
  }

  private buildReason(force: boolean, previous: ImageInspectInfo | undefined): string {
    if (force) return 'forced';
    if (!previous) return `${this.config.tag} missing`;
    const labels = previous.Config?.Labels ?? {};
    const version = labels[imageLabels.version];
    if (version !== this.config.agentdeskVersion) {
      return `built for version ${version ?? '(none)'}, running ${this.config.agentdeskVersion}`;
    }
    return 'build context changed';
  }
}
