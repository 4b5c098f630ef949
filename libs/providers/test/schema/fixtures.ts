import type { SchemaChange } from '../../src/schema/schema-change';

/** Representative caller schemas shared by the per-target example tests. */

/** Nested objects, optional properties, string enum, numeric/length constraints, formats, pattern. */
export const orderSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: ['open', 'paid'] },
    note: { type: 'string', maxLength: 200 },
    customer: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, website: { type: 'string', format: 'uri' } },
      required: ['name'],
    },
    items: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
          price: { type: 'number', minimum: 0, multipleOf: 0.01 },
          quantity: { type: 'integer', exclusiveMinimum: 0 },
        },
        required: ['sku', 'price', 'quantity'],
        additionalProperties: false,
      },
    },
  },
  required: ['id', 'status', 'customer', 'items'],
} as const;

/** oneOf, mixed and numeric enums, a nullable type array, a multi-type array. */
export const unionSchema = {
  type: 'object',
  properties: {
    kind: { oneOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'integer' }] },
    size: { enum: ['S', 'M', 1] },
    level: { enum: [1, 2, 3] },
    maybe: { type: ['string', 'null'] },
    either: { type: ['string', 'number'], description: 'A code or an amount' },
  },
  required: ['kind', 'size', 'level', 'maybe', 'either'],
  additionalProperties: false,
} as const;

/** A plain definition (used twice, once with a sibling), a recursive one, and an unused one. */
export const definitionsSchema = {
  type: 'object',
  properties: {
    home: { $ref: '#/$defs/Address' },
    work: { $ref: '#/$defs/Address', description: 'Office' },
    tree: { $ref: '#/$defs/Node' },
  },
  required: ['home', 'tree'],
  additionalProperties: false,
  $defs: {
    Address: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    Node: {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['label', 'children'],
      additionalProperties: false,
    },
    Unused: { type: 'string' },
  },
} as const;

/** Like `definitionsSchema` without the recursion, for the targets that inline everything. */
export const plainDefinitionsSchema = {
  type: 'object',
  properties: { home: { $ref: '#/$defs/Address' }, work: { $ref: '#/$defs/Address', description: 'Office' } },
  required: ['home'],
  additionalProperties: false,
  $defs: definitionsSchema.$defs,
} as const;

/** `allOf` over a `$ref` and an inline object: merged into one object. */
export const allOfSchema = {
  allOf: [
    { $ref: '#/$defs/Base' },
    { type: 'object', properties: { extra: { type: 'integer', minimum: 1 } }, required: ['extra'] },
  ],
  $defs: { Base: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
} as const;

/** A map (`additionalProperties` schema) and `const` values. */
export const mapAndConstSchema = {
  type: 'object',
  properties: {
    counts: { type: 'object', additionalProperties: { type: 'integer' } },
    version: { const: 'v1' },
    answer: { const: 42 },
  },
  required: ['counts', 'version', 'answer'],
  additionalProperties: false,
} as const;

/** `[pointer, keyword, action]` of each change, which is what most assertions compare. */
export function changeKeys(changes: readonly SchemaChange[]): Array<[string, string, string]> {
  return changes.map((change) => [change.pointer, change.keyword, change.action]);
}
