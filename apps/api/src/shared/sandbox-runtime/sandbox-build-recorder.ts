import type { BuildEvent, BuildHandle } from '@agentdesk/sandbox';
import type { JsonObject, Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';

/**
 * Who asked for a build: an API caller, the ensure the API runs when it starts, or a session whose
 * sandbox needed the missing image (with the session's owner, null when it could not be read).
 */
export type BuildRequester =
  | { readonly trigger: 'admin'; readonly principalId: string; readonly apiKeyId: string | null }
  | { readonly trigger: 'start-up' }
  | { readonly trigger: 'session'; readonly sessionId: string; readonly ownerUserId: string | null };

/** A build log longer than this keeps its start and its end (the end says how it finished). */
const maxStoredEvents = 5000;

/**
 * Persists sandbox builds: a `running` row as soon as a build starts (so its id can be read at
 * once, from any replica), then the outcome and the whole log when it ends. A caller that joins a
 * build already in flight gets the same build id and no second row.
 */
export class SandboxBuildRecorder {
  private readonly recorded = new Map<string, Promise<void>>();

  constructor(
    private readonly repositories: Repositories,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the `running` row exists. */
  track(handle: BuildHandle, requester: BuildRequester): Promise<void> {
    const known = this.recorded.get(handle.id);
    if (known) return known;
    const started = this.repositories.sandboxBuilds
      .start({
        id: handle.id,
        tag: handle.tag,
        force: handle.force,
        trigger: requester.trigger,
        actorPrincipalId: requester.trigger === 'admin' ? requester.principalId : null,
        actorApiKeyId: requester.trigger === 'admin' ? requester.apiKeyId : null,
        sessionId: requester.trigger === 'session' ? requester.sessionId : null,
        sessionOwnerUserId: requester.trigger === 'session' ? requester.ownerUserId : null,
        startedAt: new Date(handle.startedAt),
      })
      .then(() => undefined);
    this.recorded.set(handle.id, started);
    void started
      .then(() => handle.done)
      .then(() => this.finish(handle))
      .catch((error: unknown) =>
        this.logger.error({ err: error, buildId: handle.id }, 'could not record a sandbox build'),
      )
      .finally(() => this.recorded.delete(handle.id));
    return started;
  }

  private async finish(handle: BuildHandle): Promise<void> {
    const record = handle.record();
    await this.repositories.sandboxBuilds.finish(handle.id, {
      status: record.status === 'running' ? 'failed' : record.status,
      imageIdBefore: record.imageIdBefore ?? null,
      imageIdAfter: record.imageIdAfter ?? null,
      error: record.error ?? null,
      events: storableEvents(handle.events()),
      finishedAt: new Date(record.finishedAt ?? Date.now()),
    });
  }
}

function storableEvents(events: readonly BuildEvent[]): JsonObject[] {
  const kept =
    events.length <= maxStoredEvents
      ? events
      : [...events.slice(0, maxStoredEvents / 2), ...events.slice(-maxStoredEvents / 2)];
  return kept as unknown as JsonObject[];
}
