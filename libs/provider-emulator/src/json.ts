/** A plain JSON object as decoded by `JSON.parse`. */
export type JsonObject = Record<string, unknown>;

/** True for non-null, non-array objects. */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Outcome of decoding a request body: bodies that are not JSON still get recorded as text. */
export type ParsedBody = { ok: true; value: unknown } | { ok: false; text: string };

/** Decodes a request body; an empty body counts as invalid JSON, as it does for the real APIs. */
export function parseJsonBody(text: string): ParsedBody {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, text };
  }
}

/** Returns `value` when it is a string, else undefined. */
export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
