import type { RunJson, RunSummaryJson } from '@agentdesk/api-contract';
import type { JsonObject, JsonValue, StructuredOutputRun } from '@agentdesk/storage';

// The JSON shapes live in @agentdesk/api-contract (the console reads them too); these map stored
// runs to them. Re-exported for the API's own files.
export {
  runJsonSchema,
  runSummaryJsonSchema,
  targetResultJsonSchema,
  type RunJson,
  type RunSummaryJson,
} from '@agentdesk/api-contract';

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
