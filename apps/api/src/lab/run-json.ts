import { z } from 'zod';
import type { JsonObject, JsonValue, StructuredOutputRun } from '@agentdesk/storage';

const usageJsonSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  thinkingTokens: z.number(),
  cachedInputTokens: z.number(),
});

/** One target's result, as the API returns it (see `TargetResult`). */
export const targetResultJsonSchema = z.object({
  model: z.string(),
  provider: z.enum(['openai', 'anthropic', 'gemini']).nullable(),
  status: z.enum(['ok', 'error']),
  schemaTarget: z.enum(['openai-strict', 'anthropic', 'gemini']).nullable(),
  loweredSchema: z.record(z.string(), z.unknown()).nullable(),
  changes: z.array(
    z.object({ pointer: z.string(), keyword: z.string(), action: z.string(), detail: z.string() }),
  ),
  warnings: z.array(z.object({ type: z.string(), setting: z.string().optional(), message: z.string() })),
  request: z.record(z.string(), z.unknown()).nullable(),
  rawOutput: z.string().nullable(),
  json: z.unknown(),
  validation: z
    .object({
      valid: z.boolean(),
      errors: z.array(z.object({ path: z.string(), keyword: z.string(), message: z.string() })),
    })
    .nullable(),
  finishReason: z.string().nullable(),
  usage: usageJsonSchema.nullable(),
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

/** A run with every target's full result. */
export const runJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  actorPrincipalId: z.string(),
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

function stringOrNull(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function numberOr(value: JsonValue | undefined, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function objectOrNull(value: JsonValue | undefined): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

function validityOf(result: JsonObject): boolean | null {
  const valid = objectOrNull(result['validation'])?.['valid'];
  return typeof valid === 'boolean' ? valid : null;
}

export function toRunJson(run: StructuredOutputRun): RunJson {
  return {
    id: run.id,
    name: run.name,
    actorPrincipalId: run.actorPrincipalId,
    schema: run.schema,
    prompt: run.prompt,
    systemPrompt: stringOrNull(run.settings['systemPrompt']),
    strict: run.settings['strict'] !== false,
    timeoutMs: numberOr(run.settings['timeoutMs'], 0),
    targets: run.targets.map((target) => ({ model: String(target['model'] ?? '') })),
    // Stored exactly as `TargetResult`s were produced; storage keeps them verbatim.
    results: run.results as unknown as RunJson['results'],
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt.toISOString(),
    durationMs: run.finishedAt.getTime() - run.createdAt.getTime(),
  };
}

export function toRunSummaryJson(run: StructuredOutputRun): RunSummaryJson {
  return {
    id: run.id,
    name: run.name,
    actorPrincipalId: run.actorPrincipalId,
    strict: run.settings['strict'] !== false,
    targets: run.results.map((result) => ({
      model: String(result['model'] ?? ''),
      provider: stringOrNull(result['provider']),
      status: result['status'] === 'ok' ? 'ok' : 'error',
      valid: validityOf(result),
      latencyMs: typeof result['latencyMs'] === 'number' ? result['latencyMs'] : null,
    })),
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt.toISOString(),
    durationMs: run.finishedAt.getTime() - run.createdAt.getTime(),
  };
}
