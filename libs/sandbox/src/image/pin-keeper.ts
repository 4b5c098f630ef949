import { type SandboxConfig } from '../config/sandbox-config';
import { type ContainerInspectInfo, type EngineClient } from '../engine/engine-client';
import { type SandboxLogger } from '../logger';
import { ensurePinContainer, type PinReport } from './ensure-image-pin';

/** What one check did to each pin. */
export interface PinCheck {
  /** The pin of the sandbox image (the tag's current id). */
  readonly pin: PinReport;
  /** The pin of the base image the sandbox is built FROM (a prune removes an unused base tag). */
  readonly basePin: PinReport;
}

/** The two pin containers as the engine showed them (undefined: missing, or the engine did not answer). */
export interface PinSighting {
  readonly pin: ContainerInspectInfo | undefined;
  readonly basePin: ContainerInspectInfo | undefined;
}

/**
 * Keeps both prune-proof pins in place on every path that ensures the image: start-up, rebuilds,
 * re-pins, each new session's sandbox (warm or cold), the warm pool's refills, and a periodic
 * reconcile. An operator's `docker rm -f` or `docker stop` of a pin is therefore undone by the next
 * of these, not by the next rebuild.
 *
 * A full check inspects both images and both pins; a caller arriving while one runs joins it
 * (single-flight). `fresh` callers (ensure, re-pin) wait for the running check to end and share the
 * next one instead, so what they report was seen after they asked. Checks never overlap in one
 * process, so two of them never race to re-create the same pin.
 *
 * The session path must stay fast, so it takes a cheaper route (`look` + `confirm`): two container
 * inspects beside its own lookup of the tag, compared with the tag's id it found and the base id the
 * last full check saw; only a pin found wrong costs a full check. Concurrent sessions share the look.
 *
 * Best-effort like the pin itself: a check never throws; a failure is logged once until the pins
 * are fine again (a dead engine must not log a warning every interval).
 */
export class PinKeeper {
  private running: Promise<PinCheck> | undefined;
  private next: Promise<PinCheck> | undefined;
  private looking: Promise<PinSighting> | undefined;
  /** The base image id the base pin was last seen (or put) on. */
  private baseImageId: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly warned = new Set<string>();
  private readonly quietLogger: SandboxLogger;

  constructor(
    private readonly engine: EngineClient,
    private readonly config: SandboxConfig,
    private readonly logger: SandboxLogger,
  ) {
    this.quietLogger = {
      info: (message) => logger.info(message),
      warn: (message) => {
        if (this.warned.has(message)) return;
        this.warned.add(message);
        logger.warn(message);
      },
    };
  }

  /** Ensures both pins; joins a running check unless `fresh`. Never rejects. */
  check(options: { fresh?: boolean } = {}): Promise<PinCheck> {
    if (!this.running) return this.startCheck();
    if (!options.fresh) return this.running;
    this.next ??= this.running.then(() => {
      this.next = undefined;
      return this.startCheck();
    });
    return this.next;
  }

  /** Inspects the two pin containers (concurrent callers share one look). Never rejects. */
  look(): Promise<PinSighting> {
    this.looking ??= Promise.all([
      this.engine.inspectContainer(this.config.pinName).catch(() => undefined),
      this.engine.inspectContainer(this.config.basePinName).catch(() => undefined),
    ])
      .then(([pin, basePin]) => ({ pin, basePin }))
      .finally(() => {
        this.looking = undefined;
      });
    return this.looking;
  }

  /**
   * Done at once when the look found both pins running on their images (`tagImageId`, and the base
   * id of the last full check); otherwise runs a full check and resolves when it ends. Never rejects.
   */
  async confirm(sighting: Promise<PinSighting>, tagImageId: string): Promise<void> {
    const { pin, basePin } = await sighting;
    const fine = (container: ContainerInspectInfo | undefined, imageId: string | undefined) =>
      imageId !== undefined && container?.State.Running === true && container.Image === imageId;
    if (fine(pin, tagImageId) && fine(basePin, this.baseImageId)) return;
    await this.check();
  }

  /** Starts the periodic reconcile (`pinCheckIntervalMs`, 0 = off); idempotent. */
  startReconciling(): void {
    const intervalMs = this.config.pinCheckIntervalMs;
    if (intervalMs === 0 || this.timer) return;
    this.timer = setInterval(() => void this.check(), intervalMs);
    // The reconcile must never keep a process alive on its own.
    this.timer.unref();
  }

  stopReconciling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private startCheck(): Promise<PinCheck> {
    const run = this.checkBoth().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async checkBoth(): Promise<PinCheck> {
    const { engine, config } = this;
    const [pin, basePin] = await Promise.all([
      ensurePinContainer(
        engine,
        { pinName: config.pinName, reference: config.tag, ownerId: config.ownerId },
        this.quietLogger,
      ),
      ensurePinContainer(
        engine,
        { pinName: config.basePinName, reference: config.baseImage, ownerId: config.ownerId },
        this.quietLogger,
      ),
    ]);
    if (pin.outcome !== 'failed' && basePin.outcome !== 'failed') this.warned.clear();
    this.baseImageId = basePin.imageId;
    return { pin, basePin };
  }
}
