import { z } from 'zod';

// The structured-output lab (`/v1/admin/structured-output/runs`): the API answers with these shapes
// and the console's lab pages read them.

const labUsageJsonSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  thinkingTokens: z.number(),
  cachedInputTokens: z.number(),
});

/** One change schema lowering made, with a JSON pointer into the caller's schema. */
export const schemaChangeJsonSchema = z.object({
  pointer: z.string(),
  keyword: z.string(),
  action: z.string(),
  detail: z.string(),
});
export type SchemaChangeJson = z.infer<typeof schemaChangeJsonSchema>;

/** One validation error of an answer against the caller's schema, at its JSON path. */
export const validationErrorJsonSchema = z.object({
  path: z.string(),
  keyword: z.string(),
  message: z.string(),
});
export type ValidationErrorJson = z.infer<typeof validationErrorJsonSchema>;

/** One target's result, as the API returns it. */
export const targetResultJsonSchema = z.object({
  model: z.string(),
  provider: z.enum(['openai', 'anthropic', 'gemini']).nullable(),
  status: z.enum(['ok', 'error']),
  schemaTarget: z.enum(['openai-strict', 'anthropic', 'gemini']).nullable(),
  loweredSchema: z.record(z.string(), z.unknown()).nullable(),
  changes: z.array(schemaChangeJsonSchema),
  warnings: z.array(z.object({ type: z.string(), setting: z.string().optional(), message: z.string() })),
  request: z.record(z.string(), z.unknown()).nullable(),
  rawOutput: z.string().nullable(),
  json: z.unknown(),
  validation: z.object({ valid: z.boolean(), errors: z.array(validationErrorJsonSchema) }).nullable(),
  finishReason: z.string().nullable(),
  usage: labUsageJsonSchema.nullable(),
  /**
   * Micro-dollars the target's call cost; null when its model has no price (unknown, not 0).
   * Absent on runs stored before prices existed.
   */
  costMicros: z.number().int().nonnegative().nullable().optional(),
  latencyMs: z.number(),
  attempts: z.number().nullable(),
  error: z
    .object({
      kind: z.enum(['routing', 'schema-lowering', 'provider', 'timeout', 'internal']),
      code: z.string(),
      message: z.string(),
      pointer: z.string().optional(),
      status: z.number().optional(),
      requestId: z.string().optional(),
    })
    .optional(),
});
export type TargetResultJson = z.infer<typeof targetResultJsonSchema>;

/** A run with every target's full result. */
export const runJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  actorPrincipalId: z.string(),
  /** The display name of the user who ran it (null: the actor has none, or is not a user). */
  actorName: z.string().nullable().optional(),
  schema: z.record(z.string(), z.unknown()),
  prompt: z.string(),
  systemPrompt: z.string().nullable(),
  strict: z.boolean(),
  timeoutMs: z.number(),
  targets: z.array(z.object({ model: z.string() })),
  results: z.array(targetResultJsonSchema),
  createdAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number(),
});
export type RunJson = z.infer<typeof runJsonSchema>;

/** A run in a listing: what ran and how each target fared, without schemas and outputs. */
export const runSummaryJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  actorPrincipalId: z.string(),
  /** The display name of the user who ran it (null: the actor has none, or is not a user). */
  actorName: z.string().nullable().optional(),
  strict: z.boolean(),
  targets: z.array(
    z.object({
      model: z.string(),
      provider: z.string().nullable(),
      status: z.enum(['ok', 'error']),
      /** Whether the answer matched the caller's schema; null when there was no answer. */
      valid: z.boolean().nullable(),
      latencyMs: z.number().nullable(),
    }),
  ),
  createdAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number(),
});
export type RunSummaryJson = z.infer<typeof runSummaryJsonSchema>;
