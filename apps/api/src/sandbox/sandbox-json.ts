import type { ImageStatus, PinReport, PinStatus, SandboxContainerInfo } from '@agentdesk/sandbox';
import type { SandboxBuild } from '@agentdesk/storage';
import type {
  BuildJson,
  ContainerJson,
  ImageStatusJson,
  PinReportJson,
  PinStatusJson,
} from '@agentdesk/api-contract';

// The JSON shapes live in @agentdesk/api-contract (the console reads them too); these map the
// sandbox lib's and storage's values to them.

function toPinJson(pin: PinStatus): PinStatusJson {
  return { name: pin.name, state: pin.state, imageId: pin.imageId ?? null, pinned: pin.pinned };
}

export function toImageStatusJson(status: ImageStatus, engine: string): ImageStatusJson {
  return {
    engine,
    tag: status.tag,
    present: status.present,
    imageId: status.imageId ?? null,
    versionLabel: status.versionLabel ?? null,
    runningVersion: status.runningVersion,
    contentHashLabel: status.contentHashLabel ?? null,
    expectedContentHash: status.expectedContentHash,
    current: status.current,
    sizeBytes: status.sizeBytes ?? null,
    createdAt: status.createdAt ?? null,
    builtAt: status.builtAt ?? null,
    pin: toPinJson(status.pin),
    baseImage: {
      reference: status.baseImage.reference,
      present: status.baseImage.present,
      imageId: status.baseImage.imageId ?? null,
      pin: toPinJson(status.baseImage.pin),
    },
    buildInProgress: status.buildInProgress ?? null,
  };
}

/**
 * A build as JSON; with `names` (user id → display name, read for the page at once), the user who
 * asked and the session's owner are named too.
 */
export function toBuildJson(build: SandboxBuild, names?: ReadonlyMap<string, string>): BuildJson {
  const nameOf = (id: string | null): string | null => (id === null ? null : (names?.get(id) ?? null));
  return {
    id: build.id,
    tag: build.tag,
    force: build.force,
    trigger: build.trigger,
    actor:
      build.actorPrincipalId === null
        ? null
        : {
            principalId: build.actorPrincipalId,
            apiKeyId: build.actorApiKeyId,
            ...(names === undefined ? {} : { name: nameOf(build.actorPrincipalId) }),
          },
    session:
      build.sessionId === null
        ? null
        : {
            id: build.sessionId,
            ownerUserId: build.sessionOwnerUserId,
            ...(names === undefined ? {} : { ownerName: nameOf(build.sessionOwnerUserId) }),
          },
    status: build.status,
    startedAt: build.startedAt.toISOString(),
    finishedAt: build.finishedAt?.toISOString() ?? null,
    durationMs: build.finishedAt ? build.finishedAt.getTime() - build.startedAt.getTime() : null,
    imageIdBefore: build.imageIdBefore,
    imageIdAfter: build.imageIdAfter,
    error: build.error,
  };
}

export function toPinReportJson(report: PinReport): PinReportJson {
  return {
    outcome: report.outcome,
    pinName: report.pinName,
    imageId: report.imageId ?? null,
    error: report.error ?? null,
  };
}

export function toContainerJson(
  container: SandboxContainerInfo,
  ownerUserId: string | null,
  now: number,
): ContainerJson {
  return {
    id: container.id,
    name: container.name,
    role: container.role,
    sessionId: container.sessionId ?? null,
    ownerUserId,
    state: container.state,
    imageId: container.imageId,
    createdAt: container.createdAt,
    ageSeconds: Math.max(0, Math.round((now - Date.parse(container.createdAt)) / 1000)),
    lastUsedAt: container.lastUsedAt ?? null,
    stale: container.stale,
  };
}
