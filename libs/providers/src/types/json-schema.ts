/**
 * A JSON Schema document as callers write it (draft 2020-12 or draft-07 style).
 * Kept deliberately loose: lowering inspects keywords at runtime and reports what it changed.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** A JSON value, as parsed from a model's output. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
