import { z } from 'zod';
import { type SandboxConfig } from '../config/sandbox-config';
import { type ContainerSummary, type EngineClient } from '../engine/engine-client';
import { SandboxError, isSandboxError } from '../engine/sandbox-error';
import { type SandboxLogger } from '../logger';
import { containerLabels, type ContainerRole } from './container-labels';
import { hardenedContainerOptions, sessionContainerName, sessionIdFromContainerName } from './container-spec';
import { type WarmPool } from './warm-pool';

/** Session ids become part of a container name, so they must fit Docker's name alphabet. */
export const sessionIdSchema = z
  .string()
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/, 'a session id is 1–128 letters, digits, "_", "." or "-"');

/** One of our containers, as the admin list shows it. */
export interface SandboxContainerInfo {
  readonly id: string;
  readonly name: string;
  readonly role: ContainerRole | 'unknown';
  /** The session it serves; undefined for pool and pin containers. */
  readonly sessionId?: string;
  readonly ownerId: string;
  readonly state: string;
  readonly imageId: string;
  readonly createdAt: string;
  readonly lastUsedAt?: string;
}

/**
 * One container per session, named `<owner>-session-<sessionId>`: the engine's unique names make
 * "one per session" hold across processes (a second create or rename gets 409 and uses the
 * winner's). Assignment from the warm pool is a rename, because labels cannot change after create.
 */
export class SessionContainers {
  private readonly acquiring = new Map<string, Promise<string>>();
  private readonly lastUsed = new Map<string, number>();
  private readonly active = new Map<string, number>();

  constructor(
    private readonly engine: EngineClient,
    private readonly config: SandboxConfig,
    private readonly pool: WarmPool,
    private readonly currentImageId: () => Promise<string>,
    private readonly logger: SandboxLogger,
  ) {}

  /** The running container of a session, created (or taken from the pool) when there is none. */
  acquire(sessionId: string): Promise<string> {
    const parsed = sessionIdSchema.safeParse(sessionId);
    if (!parsed.success) {
      return Promise.reject(
        new SandboxError(
          'invalid-input',
          `sessionId ${JSON.stringify(sessionId)}: ${parsed.error.issues[0]?.message}`,
        ),
      );
    }
    let pending = this.acquiring.get(sessionId);
    if (!pending) {
      pending = this.findOrCreate(sessionId).finally(() => this.acquiring.delete(sessionId));
      this.acquiring.set(sessionId, pending);
    }
    return pending;
  }

  /** Marks a session busy for the duration of `run` (the reaper skips busy sessions). */
  async use<T>(sessionId: string, run: (containerId: string) => Promise<T>): Promise<T> {
    this.active.set(sessionId, (this.active.get(sessionId) ?? 0) + 1);
    try {
      try {
        return await run(await this.acquire(sessionId));
      } catch (error) {
        // Removed by hand, reaped, or stopped by a fork-bomb kill: one retry on a fresh container.
        if (!isSandboxError(error, 'container-missing')) throw error;
        return await run(await this.acquire(sessionId));
      }
    } finally {
      this.lastUsed.set(sessionId, Date.now());
      const remaining = (this.active.get(sessionId) ?? 1) - 1;
      if (remaining > 0) this.active.set(sessionId, remaining);
      else this.active.delete(sessionId);
    }
  }

  /** Deleting a session removes its container (and its workspace). */
  async remove(sessionId: string): Promise<void> {
    this.lastUsed.delete(sessionId);
    await this.engine.removeContainer(sessionContainerName(this.config.ownerId, sessionId));
  }

  /** Every container of this installation (sessions, pool, pins). Never anyone else's. */
  async list(): Promise<SandboxContainerInfo[]> {
    const containers = await this.engine.listContainers([`${containerLabels.owner}=${this.config.ownerId}`]);
    return containers.map((container) => this.describe(container));
  }

  /** Stops and removes session containers unused for longer than the idle time. */
  async reapIdle(now = Date.now()): Promise<string[]> {
    const reaped: string[] = [];
    for (const container of await this.list()) {
      if (!container.sessionId || this.active.has(container.sessionId)) continue;
      const lastUse = this.lastUsed.get(container.sessionId) ?? Date.parse(container.createdAt);
      if (now - lastUse < this.config.idleTimeoutMs) continue;
      await this.engine.removeContainer(container.id);
      this.lastUsed.delete(container.sessionId);
      reaped.push(container.sessionId);
      this.logger.info(`[sandbox] reaped idle sandbox of session ${container.sessionId}`);
    }
    return reaped;
  }

  /** At start: removes our session containers whose session no longer exists. */
  async reconcile(
    existingSessions: (sessionIds: string[]) => Promise<ReadonlySet<string>>,
  ): Promise<string[]> {
    const sessionContainers = (await this.list()).filter((container) => container.sessionId);
    const alive = await existingSessions(sessionContainers.map((container) => container.sessionId!));
    const removed: string[] = [];
    for (const container of sessionContainers) {
      if (alive.has(container.sessionId!)) continue;
      await this.engine.removeContainer(container.id);
      removed.push(container.sessionId!);
    }
    return removed;
  }

  private async findOrCreate(sessionId: string): Promise<string> {
    const name = sessionContainerName(this.config.ownerId, sessionId);
    const existing = await this.engine.inspectContainer(name);
    if (existing?.State.Running) return existing.Id;
    if (existing) await this.engine.removeContainer(existing.Id); // stopped: killed, OOM'd or stopped by hand
    const imageId = await this.currentImageId();
    const pooled = this.pool.take(imageId);
    if (pooled) {
      if (await this.engine.renameContainer(pooled, name)) return pooled;
      await this.engine.removeContainer(pooled); // another process assigned this session first
      return this.adoptWinner(name);
    }
    try {
      const id = await this.engine.createContainer(
        hardenedContainerOptions(this.config, { imageId, name, role: 'session', sessionId }),
      );
      await this.engine.startContainer(id);
      return id;
    } catch (error) {
      if (isSandboxError(error) && error.details['statusCode'] === 409) return this.adoptWinner(name);
      throw error;
    }
  }

  private async adoptWinner(name: string): Promise<string> {
    const winner = await this.engine.inspectContainer(name);
    if (!winner)
      throw new SandboxError('container-missing', `container ${name} vanished while being assigned`);
    if (!winner.State.Running) await this.engine.startContainer(winner.Id);
    return winner.Id;
  }

  private describe(container: ContainerSummary): SandboxContainerInfo {
    const labels = container.Labels ?? {};
    const name = (container.Names[0] ?? '').replace(/^\//, '');
    const sessionId = sessionIdFromContainerName(this.config.ownerId, name);
    const role = labels[containerLabels.role];
    const lastUsed = sessionId ? this.lastUsed.get(sessionId) : undefined;
    return {
      id: container.Id,
      name,
      role:
        role === 'session' || role === 'pool' || role === 'pin' ? (sessionId ? 'session' : role) : 'unknown',
      ...(sessionId ? { sessionId } : {}),
      ownerId: labels[containerLabels.owner] ?? '',
      state: container.State,
      imageId: container.ImageID,
      createdAt: new Date(container.Created * 1000).toISOString(),
      ...(lastUsed ? { lastUsedAt: new Date(lastUsed).toISOString() } : {}),
    };
  }
}
