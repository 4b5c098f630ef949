import type { ImageStatus, PinReport, PinStatus, SandboxContainerInfo } from '@agentdesk/sandbox';
import type { SandboxBuild } from '@agentdesk/storage';
import { z } from 'zod';

const pinStatusSchema = z.object({
  name: z.string(),
  state: z.string().describe('`missing` when there is no pin container'),
  imageId: z.string().nullable(),
  pinned: z.boolean().describe('Running, on the image id the tag names now'),
});

export const imageStatusJsonSchema = z.object({
  engine: z.string().describe('The Docker endpoint in use'),
  tag: z.string(),
  present: z.boolean(),
  imageId: z.string().nullable(),
  versionLabel: z.string().nullable().describe('The AgentDesk version the image was built for'),
  runningVersion: z.string(),
  contentHashLabel: z.string().nullable(),
  expectedContentHash: z.string(),
  current: z.boolean().describe('Present with this version and this build context: no rebuild needed'),
  sizeBytes: z.number().nullable(),
  createdAt: z.string().nullable(),
  builtAt: z.string().nullable(),
  pin: pinStatusSchema,
  baseImage: z.object({
    reference: z.string(),
    present: z.boolean(),
    imageId: z.string().nullable(),
    pin: pinStatusSchema,
  }),
  buildInProgress: z.string().nullable().describe('The id of the build running in this process, if any'),
});

export type ImageStatusJson = z.infer<typeof imageStatusJsonSchema>;

function toPinJson(pin: PinStatus): z.infer<typeof pinStatusSchema> {
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

/** One build-log entry (`build-start`, `step`, `progress`, `line`, `error`, `build-end`). */
export const buildEventJsonSchema = z.looseObject({ type: z.string(), at: z.number() });

export const buildJsonSchema = z.object({
  id: z.string(),
  tag: z.string(),
  force: z.boolean(),
  trigger: z.enum(['admin', 'start-up']),
  actor: z
    .object({ principalId: z.string(), apiKeyId: z.string().nullable() })
    .nullable()
    .describe('Who asked; null for the ensure the API runs at start'),
  status: z.enum(['running', 'current', 'built', 'failed', 'interrupted']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  imageIdBefore: z.string().nullable(),
  imageIdAfter: z.string().nullable(),
  error: z.string().nullable(),
});

export type BuildJson = z.infer<typeof buildJsonSchema>;

export const buildWithLogJsonSchema = buildJsonSchema.extend({
  events: z.array(buildEventJsonSchema).describe('The log so far (the whole log once the build ended)'),
});

export type BuildWithLogJson = z.infer<typeof buildWithLogJsonSchema>;

export function toBuildJson(build: SandboxBuild): BuildJson {
  return {
    id: build.id,
    tag: build.tag,
    force: build.force,
    trigger: build.trigger,
    actor:
      build.actorPrincipalId === null
        ? null
        : { principalId: build.actorPrincipalId, apiKeyId: build.actorApiKeyId },
    status: build.status,
    startedAt: build.startedAt.toISOString(),
    finishedAt: build.finishedAt?.toISOString() ?? null,
    durationMs: build.finishedAt ? build.finishedAt.getTime() - build.startedAt.getTime() : null,
    imageIdBefore: build.imageIdBefore,
    imageIdAfter: build.imageIdAfter,
    error: build.error,
  };
}

export const rebuildAcceptedJsonSchema = z.object({
  buildId: z.string(),
  status: z.literal('running'),
  events: z.string().describe('The build log as Server-Sent Events (replayed from the start)'),
  build: z.string().describe('The build record'),
});

export const pinReportJsonSchema = z.object({
  outcome: z.enum(['pinned', 'already-pinned', 'no-image', 'failed']),
  pinName: z.string(),
  imageId: z.string().nullable(),
  error: z.string().nullable(),
});

export function toPinReportJson(report: PinReport): z.infer<typeof pinReportJsonSchema> {
  return {
    outcome: report.outcome,
    pinName: report.pinName,
    imageId: report.imageId ?? null,
    error: report.error ?? null,
  };
}

export const containerJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['session', 'pool', 'pin', 'unknown']),
  sessionId: z.string().nullable(),
  ownerUserId: z.string().nullable().describe('The session’s owner; null for pool and pin containers'),
  state: z.string(),
  imageId: z.string(),
  createdAt: z.string(),
  ageSeconds: z.number(),
  lastUsedAt: z.string().nullable().describe('Last tool call in this API process'),
});

export type ContainerJson = z.infer<typeof containerJsonSchema>;

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
  };
}
