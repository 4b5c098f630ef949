import type { Selectable } from 'kysely';
import type { StructuredOutputRunsTable } from '../database-schema';
import { fromJsonText, type JsonObject, type JsonValue } from '../json';

/**
 * One structured-output lab run: a schema and a prompt tried against several models. Settings,
 * targets and results are JSON objects whose shape the API owns; storage keeps them verbatim.
 */
export interface StructuredOutputRun {
  readonly id: string;
  /** Who started the run. */
  readonly actorPrincipalId: string;
  readonly name: string;
  /** The caller's JSON Schema, as given. */
  readonly schema: JsonObject;
  readonly prompt: string;
  /** How every target was called (system prompt, strict mode, timeout…). */
  readonly settings: JsonObject;
  /** The targets in the order given (`{model}` objects). */
  readonly targets: readonly JsonObject[];
  /** One result per target, in target order. */
  readonly results: readonly JsonObject[];
  readonly createdAt: Date;
  readonly finishedAt: Date;
}

/** What the `targets` column holds. */
interface StoredTargets {
  readonly settings: JsonObject;
  readonly targets: readonly JsonObject[];
}

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `targets` column holds `{settings, targets}`: the table has no column of its own for the
 * call settings, and they describe how the targets were called. A bare array is read as targets.
 */
function readStoredTargets(value: JsonValue): StoredTargets {
  if (Array.isArray(value)) return { settings: {}, targets: value.filter(isJsonObject) };
  if (!isJsonObject(value)) return { settings: {}, targets: [] };
  const targets = value['targets'];
  const settings = value['settings'];
  return {
    settings: isJsonObject(settings) ? settings : {},
    targets: Array.isArray(targets) ? targets.filter(isJsonObject) : [],
  };
}

/** Maps a `structured_output_runs` row. */
export function toStructuredOutputRun(row: Selectable<StructuredOutputRunsTable>): StructuredOutputRun {
  const stored = readStoredTargets(fromJsonText<JsonValue>(row.targets));
  return {
    id: row.id,
    actorPrincipalId: row.actor_principal_id,
    name: row.name,
    schema: fromJsonText<JsonObject>(row.schema),
    prompt: row.prompt,
    settings: stored.settings,
    targets: stored.targets,
    results: fromJsonText<JsonObject[]>(row.results),
    createdAt: new Date(row.created_at),
    finishedAt: new Date(row.finished_at),
  };
}
