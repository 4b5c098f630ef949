import type { BuildEvent, SandboxContainerInfo } from '@agentdesk/sandbox';
import {
  isStorageError,
  StorageErrorCode,
  type Page,
  type PageRequest,
  type Repositories,
} from '@agentdesk/storage';
import { Inject, Injectable } from '@nestjs/common';
import { auditActions } from '../shared/audit/audit-actions';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { REPOSITORIES } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { answeringSandboxErrors } from './sandbox-api-error';
import type { BuildJson, BuildWithLogJson, ContainerJson, ImageStatusJson } from '@agentdesk/api-contract';
import { toBuildJson, toContainerJson, toImageStatusJson, toPinReportJson } from './sandbox-json';
import { SandboxRuntime } from '../shared/sandbox-runtime/sandbox-runtime';

/** Who is acting, for the audit record. */
export type SandboxActor = AuditContext;

/** What a build's event stream replays: the log so far and, for a build running here, the live rest. */
export type BuildLogSource =
  | {
      readonly kind: 'live';
      subscribe(listener: (event: BuildEvent) => void): () => void;
      done: Promise<unknown>;
    }
  | { readonly kind: 'stored'; readonly events: readonly unknown[]; readonly runningElsewhere: boolean };

/**
 * The admin side of the sandbox: image status, rebuilds with a persisted history, re-pins and the
 * containers. Every mutation is audited with the caller; engine failures leave as 503 (unreachable)
 * through `answeringSandboxErrors`. The build history is read from the database, so it stays
 * readable while the engine is down.
 */
@Injectable()
export class SandboxAdminService {
  constructor(
    @Inject(SandboxRuntime) private readonly runtime: SandboxRuntime,
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly crossUserAudit: CrossUserAudit,
  ) {}

  imageStatus(): Promise<ImageStatusJson> {
    const service = this.runtime.require();
    return answeringSandboxErrors(async () =>
      toImageStatusJson(await service.imageStatus(), this.runtime.engineDescription()),
    );
  }

  /** Starts (or joins) a build and answers its id once its history row exists. */
  async rebuild(actor: SandboxActor, force: boolean): Promise<{ buildId: string }> {
    const service = this.runtime.require();
    // Refuse at once when there is no engine, rather than accepting a build that can only fail.
    await answeringSandboxErrors(() => service.ping());
    const handle = service.rebuild({ force });
    await this.runtime.builds.track(handle, {
      trigger: 'admin',
      principalId: actor.principal.id,
      apiKeyId: actor.principal.apiKeyId,
    });
    // The route is @Audited: its record names the build this rebuild started (or joined).
    actor.describeChange({ target: { kind: 'sandbox-build', id: handle.id } });
    return { buildId: handle.id };
  }

  async build(id: string): Promise<BuildWithLogJson> {
    const stored = await this.repositories.sandboxBuilds.get(id);
    const live = this.runtime.service?.build(id);
    const events = live && stored.status === 'running' ? live.events() : (stored.events ?? []);
    const names = await this.repositories.people.namesOf([
      stored.actorPrincipalId,
      stored.sessionOwnerUserId,
    ]);
    return { ...toBuildJson(stored, names), events: events as BuildWithLogJson['events'] };
  }

  async builds(page: PageRequest): Promise<Page<BuildJson>> {
    const builds = await this.repositories.sandboxBuilds.list(page);
    // Who asked and whose session it was: one read for the page.
    const names = await this.repositories.people.namesOf(
      builds.items.flatMap((build) => [build.actorPrincipalId, build.sessionOwnerUserId]),
    );
    return { items: builds.items.map((build) => toBuildJson(build, names)), nextCursor: builds.nextCursor };
  }

  /** The log of a build: live from this process while it runs here, else as stored. */
  async buildLog(id: string): Promise<BuildLogSource> {
    const stored = await this.repositories.sandboxBuilds.get(id);
    const live = this.runtime.service?.build(id);
    if (live && stored.status === 'running') {
      return { kind: 'live', subscribe: (listener) => live.subscribe(listener), done: live.done };
    }
    return { kind: 'stored', events: stored.events ?? [], runningElsewhere: stored.status === 'running' };
  }

  async repin(actor: SandboxActor): Promise<ReturnType<typeof toPinReportJson>> {
    const service = this.runtime.require();
    await answeringSandboxErrors(() => service.ping());
    const report = await service.repin();
    actor.describeChange({ target: { kind: 'sandbox-image', id: null }, details: { pin: report.outcome } });
    return toPinReportJson(report);
  }

  /**
   * Every container with its session and owner. The list names users' sessions across everyone,
   * so each successful listing is audited once (empty filter, the count), like the other listings.
   */
  async containers(actor: SandboxActor): Promise<ContainerJson[]> {
    const service = this.runtime.require();
    const containers = await answeringSandboxErrors(() => service.listContainers());
    const now = Date.now();
    const owners = await this.ownersOf(containers);
    const items = containers.map((container) =>
      toContainerJson(container, container.sessionId ? (owners.get(container.sessionId) ?? null) : null, now),
    );
    await this.crossUserAudit.recordListing(actor, auditActions.sandboxContainersList, {
      filter: {},
      count: items.length,
    });
    return items;
  }

  /**
   * Removes a session or warm-pool container. A pin is refused (409): removing it is exactly what lets
   * a prune take the image, and every ensure re-creates it anyway; pins are managed on the image route.
   */
  async removeContainer(actor: SandboxActor, id: string): Promise<void> {
    const service = this.runtime.require();
    const pin = await answeringSandboxErrors(() => service.pinOf(id));
    if (pin !== undefined) {
      throw new ApiError(
        ApiErrorCode.Conflict,
        `${pin} is a pin: it keeps the sandbox image through prunes and is not removed through the containers route. ` +
          'Pins are managed on the image route: GET /v1/admin/sandbox/image shows them, POST /v1/admin/sandbox/image/repin re-creates them',
      );
    }
    const containers = await answeringSandboxErrors(() => service.listContainers());
    const target = containers.find((container) => container.id === id || container.name === id);
    await answeringSandboxErrors(() => service.removeContainer(target?.id ?? id));
    const owner = target?.sessionId ? (await this.ownersOf([target])).get(target.sessionId) : undefined;
    actor.describeChange({
      target: { kind: 'sandbox-container', id: target?.id ?? id },
      sessionId: target?.sessionId && owner ? target.sessionId : null,
      targetUserId: owner ?? null,
    });
  }

  private async ownersOf(containers: readonly SandboxContainerInfo[]): Promise<Map<string, string>> {
    const owners = new Map<string, string>();
    for (const container of containers) {
      if (!container.sessionId || owners.has(container.sessionId)) continue;
      try {
        owners.set(
          container.sessionId,
          (await this.repositories.sessions.getForAdmin(container.sessionId)).ownerUserId,
        );
      } catch (error) {
        // A container whose session is gone (the reconciler removes it at the next start).
        if (!(isStorageError(error) && error.code === StorageErrorCode.NotFound)) throw error;
      }
    }
    return owners;
  }
}
