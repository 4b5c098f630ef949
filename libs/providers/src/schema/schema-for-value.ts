import { appendPointer } from './json-pointer';
import { isPlainObject } from './json-value';
import { Located } from './located';

/**
 * A schema (in the caller's dialect) that accepts exactly `value`, located at `pointer` (where the
 * value sits inside the caller's `enum`/`const`). Used to rewrite object/array literals, which the
 * targets only accept as primitives. Nested schemas point at the nested values they describe.
 */
export function schemaForValue(value: unknown, pointer: string): Record<string, unknown> {
  if (Array.isArray(value)) {
    return {
      type: 'array',
      prefixItems: value.map(
        (item, index) =>
          new Located(schemaForValue(item, appendPointer(pointer, index)), appendPointer(pointer, index)),
      ),
      minItems: value.length,
      maxItems: value.length,
    };
  }
  if (isPlainObject(value)) {
    return {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(value).map(([key, child]) => [
          key,
          new Located(schemaForValue(child, appendPointer(pointer, key)), appendPointer(pointer, key)),
        ]),
      ),
      required: Object.keys(value),
      additionalProperties: false,
    };
  }
  return { const: value };
}
