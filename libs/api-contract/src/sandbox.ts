import { z } from 'zod';

// The sandbox admin routes (`/v1/admin/sandbox/...`): the API answers with these shapes and the
// console's sandbox page reads them.

const pinStatusJsonSchema = z.object({
  name: z.string(),
  state: z.string().describe('`missing` when there is no pin container'),
  imageId: z.string().nullable(),
  pinned: z.boolean().describe('Running, on the image id the tag names now'),
});
export type PinStatusJson = z.infer<typeof pinStatusJsonSchema>;

/** `GET /v1/admin/sandbox/image`: the image, its labels against this server, and its pins. */
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
  pin: pinStatusJsonSchema,
  baseImage: z.object({
    reference: z.string(),
    present: z.boolean(),
    imageId: z.string().nullable(),
    pin: pinStatusJsonSchema,
  }),
  buildInProgress: z.string().nullable().describe('The id of the build this API server is running, if any'),
});
export type ImageStatusJson = z.infer<typeof imageStatusJsonSchema>;

/** One build-log entry (`build-start`, `step`, `progress`, `line`, `error`, `build-end`). */
export const buildEventJsonSchema = z.looseObject({ type: z.string(), at: z.number() });
export type BuildEventJson = z.infer<typeof buildEventJsonSchema>;

/** One sandbox image build: who asked, when, how it ended, and the image ids before and after. */
export const buildJsonSchema = z.object({
  id: z.string(),
  tag: z.string(),
  force: z.boolean(),
  trigger: z
    .enum(['admin', 'start-up', 'session'])
    .describe(
      "admin: an API call; start-up: the API's own ensure; session: a session's sandbox needed the missing image",
    ),
  actor: z
    .object({
      principalId: z.string(),
      apiKeyId: z.string().nullable(),
      /** The display name of the user who asked (null: none, or the actor is not a user). */
      name: z.string().nullable().optional(),
    })
    .nullable()
    .describe('Who asked; null for the ensure the API runs at start and for session builds'),
  session: z
    .object({
      id: z.string(),
      ownerUserId: z.string().nullable(),
      /** The owner's display name (null: none). */
      ownerName: z.string().nullable().optional(),
    })
    .nullable()
    .describe('The session whose sandbox started the build (trigger session) and its owner; null otherwise'),
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

/** `POST /v1/admin/sandbox/image/rebuild`: `force` rebuilds even when the image is current (default). */
export const rebuildRequestJsonSchema = z
  .object({
    force: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe(
        'Rebuild even when the image is current (default true); false only builds when it is outdated',
      ),
  })
  .strict()
  .optional();
export type RebuildRequestJson = z.output<typeof rebuildRequestJsonSchema>;

/** `POST /v1/admin/sandbox/image/repin` takes no fields; an unknown one is refused, not ignored. */
export const repinRequestJsonSchema = z.object({}).strict().optional();

/** The rebuild route's answer: the build runs on; follow its events. */
export const rebuildAcceptedJsonSchema = z.object({
  buildId: z.string(),
  status: z.literal('running'),
  events: z.string().describe('The build log as Server-Sent Events (replayed from the start)'),
  build: z.string().describe('The build record'),
});
export type RebuildAcceptedJson = z.infer<typeof rebuildAcceptedJsonSchema>;

/** What a re-pin did. */
export const pinReportJsonSchema = z.object({
  outcome: z.enum(['pinned', 'already-pinned', 'no-image', 'failed']),
  pinName: z.string(),
  imageId: z.string().nullable(),
  error: z.string().nullable(),
});
export type PinReportJson = z.infer<typeof pinReportJsonSchema>;

/** One of this installation's sandbox containers. */
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
  lastUsedAt: z.string().nullable().describe('Last tool call seen by this API server'),
  stale: z
    .boolean()
    .describe(
      "Runs an old image (not the tag's current id, after a rebuild): a pool container is replaced by the rebuild, a session's at its next idle point with /workspace carried over",
    ),
});
export type ContainerJson = z.infer<typeof containerJsonSchema>;

/** `GET /v1/admin/sandbox/containers`. */
export const containerListJsonSchema = z.object({ items: z.array(containerJsonSchema) });
