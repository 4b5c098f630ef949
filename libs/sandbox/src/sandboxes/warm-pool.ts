import { randomBytes } from 'node:crypto';
import { type SandboxConfig } from '../config/sandbox-config';
import { type EngineClient } from '../engine/engine-client';
import { type SandboxLogger } from '../logger';
import { containerLabels } from './container-labels';
import { hardenedContainerOptions } from './container-spec';

interface PooledContainer {
  readonly id: string;
  readonly imageId: string;
}

/**
 * N hardened, started, unassigned containers, so a session's first command does not wait for a
 * create + start. Every container remembers the image id it was created from; `take` only hands
 * out one that runs the id the caller names as current, and removes the rest — so after a rebuild
 * a pooled container never runs an old image, even before `replaceAll` has run.
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
  ) {}

  get size(): number {
    return this.ready.length;
  }

  /** Takes a ready container running `imageId`; refills in the background. */
  take(imageId: string): string | undefined {
    const stale = this.ready.filter((container) => container.imageId !== imageId);
    this.ready = this.ready.filter((container) => container.imageId === imageId);
    this.discard(stale);
    const taken = this.ready.shift();
    this.fill(imageId);
    return taken?.id;
  }

  /** After a rebuild: drop every container of another image and fill up with the new one. */
  replaceAll(imageId: string): Promise<void> {
    const stale = this.ready.filter((container) => container.imageId !== imageId);
    this.ready = this.ready.filter((container) => container.imageId === imageId);
    this.discard(stale);
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

  /** Adopts pool containers left by an earlier run of this installation (same image, running). */
  async adopt(imageId: string): Promise<void> {
    const ours = await this.engine.listContainers([
      `${containerLabels.owner}=${this.config.ownerId}`,
      `${containerLabels.role}=pool`,
    ]);
    const poolPrefix = `/${this.config.ownerId}-pool-`;
    for (const container of ours) {
      if (!container.Names.some((name) => name.startsWith(poolPrefix))) continue; // already assigned
      if (this.ready.some((pooled) => pooled.id === container.Id)) continue;
      if (container.State === 'running' && container.ImageID === imageId)
        this.ready.push({ id: container.Id, imageId });
      else await this.engine.removeContainer(container.Id);
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
        const name = `${this.config.ownerId}-pool-${randomBytes(6).toString('hex')}`;
        const id = await this.engine.createContainer(
          hardenedContainerOptions(this.config, { imageId, name, role: 'pool' }),
        );
        await this.engine.startContainer(id);
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

  private discard(containers: readonly PooledContainer[]): void {
    for (const container of containers) {
      void this.engine.removeContainer(container.id).catch((error: Error) => {
        this.logger.warn(`[sandbox] could not remove stale pool container ${container.id}: ${error.message}`);
      });
    }
  }
}
