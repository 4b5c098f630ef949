/** Small helpers for JSON-shaped values; schemas are plain data, never class instances. */

export type Primitive = string | number | boolean | null;

/** A JSON Schema type name. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

export const JSON_TYPES: readonly JsonType[] = [
  'string',
  'number',
  'integer',
  'boolean',
  'null',
  'object',
  'array',
];

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isPrimitive(value: unknown): value is Primitive {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

export function isJsonType(value: unknown): value is JsonType {
  return typeof value === 'string' && (JSON_TYPES as readonly string[]).includes(value);
}

/** The narrowest JSON Schema type of a primitive (`1` is an integer, `1.5` a number). */
export function primitiveType(value: Primitive): JsonType {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'string' ? 'string' : 'boolean';
}

/** Whether `type` accepts `value`, with JSON Schema's rule that integers are numbers too. */
export function typeAccepts(type: JsonType, value: Primitive): boolean {
  const actual = primitiveType(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** Structural equality of JSON values (object key order does not matter). */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left);
    return (
      leftKeys.length === Object.keys(right).length &&
      leftKeys.every((key) => Object.hasOwn(right, key) && deepEqual(left[key], right[key]))
    );
  }
  return false;
}

/** `JSON.stringify` that never throws (lowering only uses it for human-readable text). */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
