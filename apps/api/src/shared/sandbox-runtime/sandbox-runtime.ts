import type { AgentTool } from '@agentdesk/agent-tools';
import {
  buildOfflineBaseImage,
  createSandboxTools,
  inProcessBuildLock,
  SandboxService,
  type BuildHandle,
  type SandboxLogger,
} from '@agentdesk/sandbox';
import { isStorageError, StorageErrorCode, type AppDatabase, type Repositories } from '@agentdesk/storage';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { ApiError, ApiErrorCode } from '../../errors/api-error';
import { postgresBuildLock } from './postgres-build-lock';
import { SandboxBuildRecorder } from './sandbox-build-recorder';
import {
  sandboxHealthOf,
  startRetryDelayMs,
  type EnginePing,
  type SandboxHealth,
  type SandboxStartState,
} from './sandbox-start-state';
import type { SandboxSettings } from '../../config/sandbox-settings';

export type { SandboxHealth } from './sandbox-start-state';

const pingTimeoutMs = 1_500;
const removeTimeoutMs = 5_000;
/** On PostgreSQL another replica may be building; a build running longer than this is abandoned. */
const abandonedBuildMs = 60 * 60_000;

/**
 * The API's sandbox: the lib's service (or none when disabled), the agent tools over it, the build
 * history, and the background work started with the app (image + pin ensure, warm pool, idle
 * reaper, pin reconcile, reconciler) and stopped with it. Nothing here blocks the start: without an
 * engine, or with an image that cannot be built, the API serves everything else, reports the sandbox
 * not ready with the reason, and retries (backing off) until the start succeeds.
 */
export class SandboxRuntime implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly service: SandboxService | undefined;
  readonly builds: SandboxBuildRecorder;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Failed start attempts in a row (the first is logged in full, the rest in one line). */
  private failedStarts = 0;
  private started: Promise<void> | undefined;
  private state: SandboxStartState = { phase: 'starting' };
  /** The last attempt failed because the engine did not answer (not because the engine refused). */
  private engineWasAway = false;
  /**
   * The error of the last start-up build recorded as failed: a retry failing the same way adds no
   * second row (a broken base image would otherwise add one every retry, forever).
   */
  private recordedBuildFailure: string | undefined;

  constructor(
    readonly settings: SandboxSettings,
    private readonly database: AppDatabase,
    private readonly repositories: Repositories,
    private readonly logger: Logger,
  ) {
    this.builds = new SandboxBuildRecorder(repositories, logger);
    if (!settings.enabled) return;
    const sandboxLogger: SandboxLogger = {
      info: (message) => logger.info(message),
      warn: (message) => logger.warn(message),
    };
    this.service = new SandboxService(settings.config, {
      engine: settings.dockerHost === undefined ? {} : { dockerHost: settings.dockerHost },
      logger: sandboxLogger,
      // One SQLite file has one API process: the in-process single-flight is the whole story.
      lock: database.dialect === 'postgres' ? postgresBuildLock(database, logger) : inProcessBuildLock,
      ...(settings.offlineBaseImage && {
        restoreBaseImage: (engine, reference) =>
          buildOfflineBaseImage(engine, { reference }).then(() => undefined),
      }),
      onBuildStarted: (handle, cause) => this.recordSessionBuild(handle, cause.sessionId),
    });
  }

  /** The agent tools of the sandbox; none when it is disabled. */
  tools(): AgentTool[] {
    return this.service ? createSandboxTools(this.service) : [];
  }

  /**
   * The service for an admin route. Turned off on this server is 404 (there is no sandbox here, and
   * there will not be one until the configuration changes); an engine that is down is 503.
   */
  require(): SandboxService {
    if (this.service) return this.service;
    throw new ApiError(
      ApiErrorCode.NotFound,
      'The sandbox is disabled on this server (AGENTDESK_SANDBOX_ENABLED=false)',
    );
  }

  /** Where the engine is, for messages and the banner. */
  engineDescription(): string {
    return this.service?.engine.describe() ?? 'none (sandbox disabled)';
  }

  /** Ready only once the start succeeded and the engine answers; else why not. */
  async health(): Promise<SandboxHealth> {
    if (!this.service) return { status: 'disabled', engine: this.engineDescription() };
    const ping = await this.pingWithin(this.service, pingTimeoutMs);
    // The retries back off up to minutes: an engine that is back should not wait for the next one.
    if (ping.answered && this.state.phase === 'failed' && this.engineWasAway) this.retryNow(this.service);
    return sandboxHealthOf(this.state, this.engineDescription(), ping, Date.now());
  }

  /** Deleting a session removes its sandbox. Best-effort: the reconciler catches what this misses. */
  async removeSession(sessionId: string): Promise<void> {
    if (!this.service) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      // An engine that does not answer must not hold up the deletion.
      await Promise.race([
        this.service.removeSession(sessionId),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('the engine did not answer in time')), removeTimeoutMs);
        }),
      ]);
    } catch (error) {
      this.logger.warn({ err: error, sessionId }, 'could not remove the sandbox of a deleted session');
    } finally {
      clearTimeout(timer);
    }
  }

  /** Nest calls this once the app is initialised: the work starts in the background. */
  onApplicationBootstrap(): void {
    const service = this.service;
    // Builds a previous stop interrupted are closed first, so this start's own row is never among them.
    this.started = this.markAbandonedBuilds().then(() => service && this.startInBackground(service));
  }

  /** Resolves when the latest background start attempt has ended (tests wait for it). */
  async whenStarted(): Promise<void> {
    await this.started;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.started?.catch(() => undefined);
    await this.service?.close();
  }

  private async startInBackground(service: SandboxService): Promise<void> {
    try {
      // Reach the engine first: without one, a start-up build would only add a failed build to the
      // history at every retry.
      await service.ping().catch((error: unknown) => {
        this.engineWasAway = true;
        throw error;
      });
      this.engineWasAway = false;
      await this.ensureImageRecorded(service);
      const result = await service.start();
      this.logger.info(
        { tag: result.tag, imageId: result.imageId, status: result.status, pin: result.pin.outcome },
        'sandbox image ensured',
      );
      this.failedStarts = 0;
      this.state = { phase: 'started' };
    } catch (error) {
      if (!this.stopped) this.failedStart(service, error);
      return;
    }
    try {
      const removed = await service.reconcile((sessionIds) => this.existingSessions(sessionIds));
      if (removed.length > 0)
        this.logger.info({ sessions: removed }, 'removed the sandboxes of sessions that no longer exist');
    } catch (error) {
      // The sandbox works; the leftovers wait for the idle reaper or the next start.
      this.logger.warn({ err: error }, 'could not remove the sandboxes of sessions that no longer exist');
    }
  }

  /**
   * The start-up ensure, in the build history: the first attempt's row exists as soon as it starts.
   * A retry is recorded only when it ends differently from the last recorded failure, so a base
   * image that stays broken is one failed build, not one per retry.
   */
  private async ensureImageRecorded(service: SandboxService): Promise<void> {
    const handle = service.rebuild({ force: false });
    if (this.recordedBuildFailure === undefined) await this.builds.track(handle, { trigger: 'start-up' });
    const outcome = await handle.done;
    const failure = outcome.status === 'failed' ? outcome.error.message : undefined;
    if (this.recordedBuildFailure !== undefined && failure !== this.recordedBuildFailure) {
      await this.builds.track(handle, { trigger: 'start-up' });
    }
    this.recordedBuildFailure = failure;
    if (outcome.status === 'failed') throw outcome.error;
  }

  private failedStart(service: SandboxService, error: unknown): void {
    this.failedStarts += 1;
    const reason = error instanceof Error ? error.message : String(error);
    const retryInMs = startRetryDelayMs(this.settings.startRetryMs, this.failedStarts);
    this.state = {
      phase: 'failed',
      reason,
      attempts: this.failedStarts,
      nextAttemptAt: Date.now() + retryInMs,
    };
    // The whole error once; while it goes on, a short line at attempts 2, 4, 8, …: an API left
    // running without an engine for two days logs a dozen lines, not thousands.
    const message =
      'the sandbox could not start; everything else works, sandbox tools answer with an error until it does';
    const context = { engine: this.engineDescription(), retryInMs };
    if (this.failedStarts === 1) this.logger.warn({ ...context, err: error }, message);
    else if (isPowerOfTwo(this.failedStarts))
      this.logger.warn(
        { ...context, attempts: this.failedStarts, nextLogAtAttempt: this.failedStarts * 2, reason },
        message,
      );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.stopped) this.started = this.startInBackground(service);
    }, retryInMs);
    this.retryTimer.unref();
  }

  /** Runs the next start attempt now instead of at its timer (at most one attempt at a time). */
  private retryNow(service: SandboxService): void {
    if (this.stopped || this.retryTimer === undefined) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.started = this.startInBackground(service);
  }

  private async pingWithin(service: SandboxService, timeoutMs: number): Promise<EnginePing> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        service.ping(),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return { answered: true };
    } catch (error) {
      return { answered: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A session's sandbox needed the missing image and the lib started building it: recorded like any
   * build, with the session and its owner. Best-effort: the session's command never waits on it.
   */
  private async recordSessionBuild(handle: BuildHandle, sessionId: string): Promise<void> {
    try {
      const ownerUserId = await this.repositories.sessions.getForAdmin(sessionId).then(
        (session) => session.ownerUserId,
        (error: unknown) => {
          if (isStorageError(error) && error.code === StorageErrorCode.NotFound) return null;
          throw error;
        },
      );
      await this.builds.track(handle, { trigger: 'session', sessionId, ownerUserId });
    } catch (error) {
      this.logger.error(
        { err: error, buildId: handle.id, sessionId },
        'could not record a session’s sandbox build',
      );
    }
  }

  private async existingSessions(sessionIds: readonly string[]): Promise<ReadonlySet<string>> {
    const existing = new Set<string>();
    for (const sessionId of sessionIds) {
      // Only "not found" means gone: a database error must never get a live session's sandbox removed.
      const found = await this.repositories.sessions.getForAdmin(sessionId).then(
        () => true,
        (error: unknown) => {
          if (isStorageError(error) && error.code === StorageErrorCode.NotFound) return false;
          throw error;
        },
      );
      if (found) existing.add(sessionId);
    }
    return existing;
  }

  private async markAbandonedBuilds(): Promise<void> {
    const cutOff = this.database.dialect === 'sqlite' ? new Date() : new Date(Date.now() - abandonedBuildMs);
    try {
      const marked = await this.repositories.sandboxBuilds.markInterrupted(cutOff);
      if (marked > 0)
        this.logger.warn({ builds: marked }, 'marked sandbox builds a previous stop interrupted');
    } catch (error) {
      this.logger.warn({ err: error }, 'could not mark interrupted sandbox builds');
    }
  }
}

function isPowerOfTwo(count: number): boolean {
  return (count & (count - 1)) === 0;
}
