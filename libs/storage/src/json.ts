/** Any JSON value, as stored in the JSON columns (`jsonb` on PostgreSQL, `text` on SQLite). */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { readonly [key: string]: JsonValue };

/** Serializes for a JSON column. Always a string: `pg` would turn a JS array into a SQL array. */
export function toJsonText(value: JsonValue): string {
  return JSON.stringify(value);
}

/** Serializes an optional value; `null` stays SQL NULL rather than JSON `null`. */
export function toNullableJsonText(value: JsonValue | null | undefined): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** Parses a JSON column (both engines hand back text: see `postgres-dialect.ts`). */
export function fromJsonText<T extends JsonValue>(text: string): T {
  return JSON.parse(text) as T;
}

/** Parses an optional JSON column. */
export function fromNullableJsonText<T extends JsonValue>(text: string | null): T | null {
  return text === null ? null : fromJsonText<T>(text);
}
