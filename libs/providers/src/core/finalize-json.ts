import type { OutputMode } from '../response-format/normalize-response-format';
import type { LoweredSchema } from '../schema/schema-change';
import { validateJson } from '../schema/validate-json';
import type { JsonValidation } from '../types/result';

export interface FinalizedJson {
  json?: unknown;
  validation?: JsonValidation;
}

/** Models sometimes fence JSON in markdown even in JSON mode; the fence is not part of the value. */
function stripCodeFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return fenced?.[1] ?? text;
}

/**
 * Parses the answer, maps it back to the caller's shape (e.g. nulls OpenAI strict had to emit) and
 * validates it against the caller's ORIGINAL schema, whatever the provider enforced.
 */
export function finalizeJson(
  text: string,
  mode: OutputMode,
  lowered: LoweredSchema | undefined,
): FinalizedJson {
  if (mode.kind === 'text') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripCodeFence(text));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      validation: {
        valid: false,
        errors: [{ path: '', keyword: 'json', message: `answer is not valid JSON: ${reason}` }],
      },
    };
  }
  const json = lowered ? lowered.restore(parsed) : parsed;
  if (mode.kind === 'json-schema') return { json, validation: validateJson(mode.schema, json) };
  const isObject = json !== null && typeof json === 'object' && !Array.isArray(json);
  return {
    json,
    validation: isObject
      ? { valid: true, errors: [] }
      : { valid: false, errors: [{ path: '', keyword: 'type', message: 'must be a JSON object' }] },
  };
}
