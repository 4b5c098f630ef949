import type { JsonObject } from '../json';

/** Reads a field in either spelling the API accepts, e.g. `responseSchema` / `response_schema`. */
export function configField(object: JsonObject, camelName: string): unknown {
  return object[camelName] ?? object[camelName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}
