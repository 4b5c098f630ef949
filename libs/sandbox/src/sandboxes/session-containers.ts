import { z } from 'zod';
import { type SandboxConfig } from '../config/sandbox-config';
import { type ContainerInspectInfo, type ContainerSummary, type EngineClient } from '../engine/engine-client';
import { SandboxError, isSandboxError } from '../engine/sandbox-error';
import { type SandboxLogger } from '../logger';
import { containerLabels, type ContainerRole } from './container-labels';
import { hardenedContainerOptions, sessionContainerName, sessionIdFromContainerName } from './container-spec';
import { replaceStaleContainer, retiredNamePrefix } from './replace-stale-container';
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
  /**
   * A session or pool container whose image id is not the tag's current id (a rebuild moved the
   * tag): a pool container is replaced by the rebuild, a session's at its next idle point.
   */
  readonly stale: boolean;
}

/** How many pool containers one acquire tries to rename before it starts one cold. */
const maxPoolAttempts = 3;

/** How long the tag's image id read at an idle point is trusted before the engine is asked again. */
const tagImageReuseMs = 1_000;

/**
 * One container per session, named `<owner>-session-<sessionId>`: the engine's unique names make
 * "one per session" hold across processes (a second create or rename gets 409 and uses the
 * winner's). Assignment from the warm pool is a rename, because labels cannot change after create.
 */
export class SessionContainers {
  private readonly acquiring = new Map<string, Promise<string>>();
  private readonly lastUsed = new Map<string, number>();
  private readonly active = new Map<string, number>();
  /** What the session's next tool result must tell the model (its sandbox changed under it). */
  private readonly notices = new Map<string, string>();
  /** Old containers of sessions being moved to the current image (renamed, not yet removed). */
  private readonly retiring = new Set<string>();
  /** Each session's container as last checked, and the image it runs. */
  private readonly checked = new Map<string, { readonly containerId: string; readonly imageId: string }>();
  /** The tag's image id as last read at an idle point, and when. */
  private tagImage: { readonly id: string | undefined; readonly readAt: number } | undefined;

  constructor(
    private readonly engine: EngineClient,
    private readonly config: SandboxConfig,
    private readonly pool: WarmPool,
    private readonly currentImageId: () => Promise<string>,
    private readonly logger: SandboxLogger,
    /** True while the container's runner stream is open, which it is only while the container runs. */
    private readonly isLive: (containerId: string) => boolean = () => false,
  ) {}

  /** Forgets the tag's image id read at an idle point (a build of this process moved the tag). */
  forgetImageTag(): void {
    this.tagImage = undefined;
  }

  /**
   * The running container of a session, created (or taken from the pool) when there is none. With
   * `replaceStale` (an idle point: no command of the session running) a container on an old image is
   * replaced by one on the current image, its /workspace carried over.
   */
  acquire(sessionId: string, options: { replaceStale?: boolean } = {}): Promise<string> {
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
      pending = this.findOrCreate(sessionId, options.replaceStale ?? false).finally(() =>
        this.acquiring.delete(sessionId),
      );
      this.acquiring.set(sessionId, pending);
    }
    return pending;
  }

  /**
   * Marks a session busy for the duration of `run` (the reaper skips busy sessions). A call that
   * finds no other command of the session running is an idle point: a stale container is replaced.
   */
  async use<T>(sessionId: string, run: (containerId: string) => Promise<T>): Promise<T> {
    const idle = !this.active.has(sessionId);
    this.active.set(sessionId, (this.active.get(sessionId) ?? 0) + 1);
    try {
      try {
        return await run(await this.acquire(sessionId, { replaceStale: idle }));
      } catch (error) {
        // Removed by hand, reaped, or stopped by a fork-bomb kill: one retry on a fresh container —
        // unless a command had started there (running it twice would hide that it was cut off).
        if (!isSandboxError(error, 'container-missing') || error.details['commandStarted'] === true)
          throw error;
        return await run(await this.acquire(sessionId));
      }
    } finally {
      this.lastUsed.set(sessionId, Date.now());
      const remaining = (this.active.get(sessionId) ?? 1) - 1;
      if (remaining > 0) this.active.set(sessionId, remaining);
      else this.active.delete(sessionId);
    }
  }

  /** The notice for the session's next tool result, once (then it is gone). */
  takeNotice(sessionId: string): string | undefined {
    const notice = this.notices.get(sessionId);
    this.notices.delete(sessionId);
    return notice;
  }

  /** Deleting a session removes its container (and its workspace). */
  async remove(sessionId: string): Promise<void> {
    this.checked.delete(sessionId);
    this.lastUsed.delete(sessionId);
    this.notices.delete(sessionId);
    await this.engine.removeContainer(sessionContainerName(this.config.ownerId, sessionId));
  }

  /** Every container of this installation (sessions, pool, pins). Never anyone else's. */
  async list(): Promise<SandboxContainerInfo[]> {
    const [containers, current] = await Promise.all([
      this.engine.listContainers([`${containerLabels.owner}=${this.config.ownerId}`]),
      this.engine.inspectImage(this.config.tag),
    ]);
    return containers.map((container) => this.describe(container, current?.Id));
  }

  /** Stops and removes session containers unused for longer than the idle time. */
  async reapIdle(now = Date.now()): Promise<string[]> {
    const reaped: string[] = [];
    const containers = await this.list();
    await this.removeRetiredLeftovers(containers);
    for (const container of containers) {
      if (!container.sessionId || this.active.has(container.sessionId)) continue;
      const lastUse = this.lastUsed.get(container.sessionId) ?? Date.parse(container.createdAt);
      if (now - lastUse < this.config.idleTimeoutMs) continue;
      await this.engine.removeContainer(container.id);
      this.lastUsed.delete(container.sessionId);
      this.checked.delete(container.sessionId);
      reaped.push(container.sessionId);
      this.logger.info(`[sandbox] reaped idle sandbox of session ${container.sessionId}`);
    }
    return reaped;
  }

  /** At start: removes our session containers whose session no longer exists. */
  async reconcile(
    existingSessions: (sessionIds: string[]) => Promise<ReadonlySet<string>>,
  ): Promise<string[]> {
    const containers = await this.list();
    await this.removeRetiredLeftovers(containers);
    const sessionContainers = containers.filter((container) => container.sessionId);
    const alive = await existingSessions(sessionContainers.map((container) => container.sessionId!));
    const removed: string[] = [];
    for (const container of sessionContainers) {
      if (alive.has(container.sessionId!)) continue;
      await this.engine.removeContainer(container.id);
      removed.push(container.sessionId!);
    }
    return removed;
  }

  private async findOrCreate(sessionId: string, replaceStale: boolean): Promise<string> {
    // The hot path of every command: a container whose runner stream is open is running (the
    // stream ends when it stops or goes), so no engine call is needed — unless this is an idle
    // point and the tag may have moved since it was last read (a build here forgets it at once;
    // another replica's build is seen within `tagImageReuseMs`).
    const known = this.checked.get(sessionId);
    if (known !== undefined && this.isLive(known.containerId)) {
      if (!replaceStale) return known.containerId;
      const tag = this.tagImage;
      if (tag !== undefined && Date.now() - tag.readAt < tagImageReuseMs && tag.id === known.imageId)
        return known.containerId;
    }
    this.checked.delete(sessionId);
    const name = sessionContainerName(this.config.ownerId, sessionId);
    // The tag's id only matters at an idle point; read beside the container, not after it.
    const [existing, current] = await Promise.all([
      this.engine.inspectContainer(name),
      replaceStale ? this.engine.inspectImage(this.config.tag) : undefined,
    ]);
    if (replaceStale) this.tagImage = { id: current?.Id, readAt: Date.now() };
    if (existing?.State.Running) {
      if (!current || existing.Image === current.Id) {
        this.checked.set(sessionId, { containerId: existing.Id, imageId: existing.Image });
        return existing.Id;
      }
      const replaced = await replaceStaleContainer({
        engine: this.engine,
        logger: this.logger,
        ownerId: this.config.ownerId,
        sessionId,
        name,
        staleId: existing.Id,
        // Through currentImageId like every other new sandbox (it also re-checks the pins).
        createFresh: async () => this.createFresh(sessionId, name, await this.currentImageId()),
        retiring: this.retiring,
      });
      this.addNotice(sessionId, replaced.notice);
      return replaced.containerId;
    }
    if (existing) {
      // Stopped: killed, OOM'd, stopped by hand or by an engine restart. Its tmpfs workspace is gone.
      await this.engine.removeContainer(existing.Id);
      this.addNotice(sessionId, stoppedNotice(existing));
    } else if (this.lastUsed.has(sessionId)) {
      // Used by this process and neither reaped nor deleted by it: removed behind our back.
      this.addNotice(sessionId, removedNotice);
    }
    return this.createFresh(sessionId, name, await this.currentImageId());
  }

  /** A new container under the session's name: a checked warm-pool one renamed, else a cold start. */
  private async createFresh(sessionId: string, name: string, imageId: string): Promise<string> {
    for (let attempt = 0; attempt < maxPoolAttempts; attempt++) {
      const pooled = await this.pool.take(imageId);
      if (!pooled) break;
      let renamed: boolean;
      try {
        renamed = await this.engine.renameContainer(pooled, name);
      } catch (error) {
        // Removed between its check and the rename: take the next one.
        if (isSandboxError(error, 'container-missing')) continue;
        throw error;
      }
      if (renamed) return pooled;
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

  private addNotice(sessionId: string, notice: string): void {
    const earlier = this.notices.get(sessionId);
    this.notices.set(sessionId, earlier ? `${earlier}\n${notice}` : notice);
  }

  /** Old containers left renamed by a replacement that did not finish (a crash, a failed remove). */
  private async removeRetiredLeftovers(containers: readonly SandboxContainerInfo[]): Promise<void> {
    const prefix = retiredNamePrefix(this.config.ownerId);
    for (const container of containers) {
      if (!container.name.startsWith(prefix) || this.retiring.has(container.id)) continue;
      await this.engine.removeContainer(container.id);
      this.logger.info(`[sandbox] removed ${container.name}, left by an unfinished container replacement`);
    }
  }

  private async adoptWinner(name: string): Promise<string> {
    const winner = await this.engine.inspectContainer(name);
    if (!winner)
      throw new SandboxError('container-missing', `container ${name} vanished while being assigned`);
    if (!winner.State.Running) await this.engine.startContainer(winner.Id);
    return winner.Id;
  }

  private describe(container: ContainerSummary, currentImageId: string | undefined): SandboxContainerInfo {
    const labels = container.Labels ?? {};
    const name = (container.Names[0] ?? '').replace(/^\//, '');
    const sessionId = sessionIdFromContainerName(this.config.ownerId, name);
    const role = labels[containerLabels.role];
    const lastUsed = sessionId ? this.lastUsed.get(sessionId) : undefined;
    const knownRole =
      role === 'session' || role === 'pool' || role === 'pin' ? (sessionId ? 'session' : role) : 'unknown';
    return {
      id: container.Id,
      name,
      role: knownRole,
      ...(sessionId ? { sessionId } : {}),
      ownerId: labels[containerLabels.owner] ?? '',
      state: container.State,
      imageId: container.ImageID,
      createdAt: new Date(container.Created * 1000).toISOString(),
      ...(lastUsed ? { lastUsedAt: new Date(lastUsed).toISOString() } : {}),
      // Pins run their own images (the base pin the base): only sandboxes can be stale.
      stale:
        (knownRole === 'session' || knownRole === 'pool') &&
        currentImageId !== undefined &&
        container.ImageID !== currentImageId,
    };
  }
}

/** What the model reads after its sandbox was found stopped and replaced by an empty one. */
function stoppedNotice(container: ContainerInspectInfo): string {
  const { State: state } = container;
  const why = state.OOMKilled
    ? 'killed for using too much memory'
    : `${state.Status}, exit code ${state.ExitCode}`;
  return (
    `Note: this session’s sandbox container had stopped (${why}; an engine restart, an operator, or a ` +
    'command that filled every process slot). A new one was started: /workspace starts empty and ' +
    'processes started by earlier commands are gone.'
  );
}

const removedNotice =
  'Note: this session’s sandbox container was removed since its last use (by an operator, a prune, or ' +
  'an idle clean-up). A new one was started: /workspace starts empty and processes started by earlier ' +
  'commands are gone.';
