import { randomBytes } from 'node:crypto';
import { type SandboxConfig } from '../config/sandbox-config';
import { type ContainerInspectInfo, type EngineClient } from '../engine/engine-client';
import { type SandboxLogger } from '../logger';
import { containerLabels } from './container-labels';
import { hardenedContainerOptions } from './container-spec';

interface PooledContainer {
  readonly id: string;
  readonly imageId: string;
}

/**
 * N hardened, started, unassigned containers, so a session's first command does not wait for a
 * create + start. Every container remembers the image id it was created from, but the engine can
 * change behind our back (`docker rm -f`, `docker stop`, an engine restart that leaves them
 * `Exited`, a rebuild by another replica): `take` inspects a container once before handing it out
 * and discards it unless it still exists, runs, runs the current image id and is still unassigned.
 */
export class WarmPool {
  private ready: PooledContainer[] = [];
  private refilling: Promise<void> | undefined;
  private targetImageId: string | undefined;
  private closed = false;

  constructor(
    private readonly engine: EngineClient,
    private readonly config: SandboxConfig,
    private readonly logger: SandboxLogger,
    /** Readies a started container before it joins the pool (starts its command runner); never throws. */
    private readonly prepare: (containerId: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  get size(): number {
    return this.ready.length;
  }

  /**
   * Takes a ready container that runs `imageId`, checked on the engine; a bad one is removed and the
   * next one tried. Undefined when none is left (the caller starts one cold). Refills in the background.
   */
  async take(imageId: string): Promise<string | undefined> {
    try {
      for (let next = this.ready.shift(); next; next = this.ready.shift()) {
        if (next.imageId !== imageId) {
          this.discard([next]); // built before the last rebuild: expected, not news
          continue;
        }
        const problem = unusable(await this.inspect(next), imageId, this.poolNamePrefix());
        if (problem === undefined) return next.id;
        this.logger.warn(`[sandbox] warm pool container ${next.id.slice(0, 12)} ${problem}: discarded`);
        this.discard([next]);
      }
      return undefined;
    } finally {
      void this.fill(imageId);
    }
  }

  /**
   * After a rebuild: drop every container of another image (those this process holds, and any
   * other pool container of this installation left on the engine) and fill up with the new one.
   * Never rejects: it runs in the background after a build.
   */
  async replaceAll(imageId: string): Promise<void> {
    const stale = this.ready.filter((container) => container.imageId !== imageId);
    this.ready = this.ready.filter((container) => container.imageId === imageId);
    this.discard(stale);
    try {
      for (const container of await this.listUnassigned()) {
        const held = this.ready.some((pooled) => pooled.id === container.Id);
        if (!held && container.ImageID !== imageId)
          this.discard([{ id: container.Id, imageId: container.ImageID }]);
      }
    } catch (error) {
      this.logger.warn(`[sandbox] could not list old warm pool containers: ${(error as Error).message}`);
    }
    return this.fill(imageId);
  }

  /** Starts a background refill towards the configured size; resolves when it is done. */
  fill(imageId: string): Promise<void> {
    this.targetImageId = imageId;
    if (this.closed || this.config.warmPoolSize === 0) return Promise.resolve();
    if (!this.refilling) {
      this.refilling = this.refillLoop().finally(() => {
        this.refilling = undefined;
      });
    }
    return this.refilling;
  }

  /**
   * At start: adopts pool containers left by an earlier run of this installation (running, on the
   * current image), up to the configured size; every other leftover is removed. After an engine
   * restart they are `Exited`; a process started with a smaller pool (or none) must not keep more.
   */
  async adopt(imageId: string): Promise<void> {
    for (const container of await this.listUnassigned()) {
      if (this.ready.some((pooled) => pooled.id === container.Id)) continue;
      const fits = !this.closed && this.ready.length < this.config.warmPoolSize;
      if (fits && container.State === 'running' && container.ImageID === imageId) {
        this.ready.push({ id: container.Id, imageId });
        void this.prepare(container.Id);
      } else await this.engine.removeContainer(container.Id);
    }
  }

  /** Stops refilling; with `removeContainers` also removes the unassigned containers. */
  async close(options: { removeContainers?: boolean } = {}): Promise<void> {
    this.closed = true;
    await this.refilling?.catch(() => undefined);
    if (options.removeContainers) {
      const all = this.ready;
      this.ready = [];
      await Promise.all(all.map((container) => this.engine.removeContainer(container.id)));
    }
  }

  private async refillLoop(): Promise<void> {
    while (!this.closed && this.targetImageId && this.ready.length < this.config.warmPoolSize) {
      const imageId = this.targetImageId;
      try {
        const name = `${this.poolNamePrefix()}${randomBytes(6).toString('hex')}`;
        const id = await this.engine.createContainer(
          hardenedContainerOptions(this.config, { imageId, name, role: 'pool' }),
        );
        await this.engine.startContainer(id);
        // Its first command should not wait for the runner to start (~100 ms): start it now.
        await this.prepare(id);
        if (this.closed || imageId !== this.targetImageId) {
          await this.engine.removeContainer(id);
          continue;
        }
        this.ready.push({ id, imageId });
      } catch (error) {
        this.logger.warn(`[sandbox] warm pool refill failed: ${(error as Error).message}`);
        return; // the next take or replaceAll tries again
      }
    }
  }

  /** Inspects a container taken out of `ready`; on an engine failure it goes back, untouched. */
  private async inspect(container: PooledContainer): Promise<ContainerInspectInfo | undefined> {
    try {
      return await this.engine.inspectContainer(container.id);
    } catch (error) {
      this.ready.unshift(container);
      throw error;
    }
  }

  /** Our pool containers on the engine that still carry a pool name (a rename assigns them). */
  private async listUnassigned() {
    const ours = await this.engine.listContainers([
      `${containerLabels.owner}=${this.config.ownerId}`,
      `${containerLabels.role}=pool`,
    ]);
    const prefix = `/${this.poolNamePrefix()}`;
    return ours.filter((container) => container.Names.some((name) => name.startsWith(prefix)));
  }

  private poolNamePrefix(): string {
    return `${this.config.ownerId}-pool-`;
  }

  private discard(containers: readonly PooledContainer[]): void {
    for (const container of containers) {
      void this.engine.removeContainer(container.id).catch((error: Error) => {
        this.logger.warn(`[sandbox] could not remove pool container ${container.id}: ${error.message}`);
      });
    }
  }
}

/** Why a pooled container must not be handed out, or undefined when it is fine (one inspect). */
function unusable(
  container: ContainerInspectInfo | undefined,
  imageId: string,
  poolNamePrefix: string,
): string | undefined {
  if (!container) return 'is gone (removed behind our back)';
  if (!container.State.Running) return `is ${container.State.Status} (stopped behind our back)`;
  if (container.State.Paused) return 'is paused';
  if (container.Image !== imageId) return 'runs an old image';
  // Another process (a replica adopting the same leftovers) may have assigned it by a rename.
  if (!container.Name.startsWith(`/${poolNamePrefix}`)) return `was assigned elsewhere (${container.Name})`;
  return undefined;
}
