import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from '../../src/schema/lower-json-schema';
import {
  allOfSchema,
  changeKeys,
  definitionsSchema,
  mapAndConstSchema,
  orderSchema,
  plainDefinitionsSchema,
  unionSchema,
} from './fixtures';

const lower = (schema: Record<string, unknown>) => lowerJsonSchema(schema, 'anthropic');

describe('lowerJsonSchema → anthropic', () => {
  it('keeps optional properties optional, closes objects and describes numeric/length constraints', () => {
    const lowered = lower(orderSchema);
    expect(lowered.target).toBe('anthropic');
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: ['open', 'paid'] },
        note: { type: 'string', description: 'Must be at most 200 characters long.' },
        customer: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Must be at least 1 character long.' },
            website: { type: 'string', format: 'uri' },
          },
          required: ['name'],
          additionalProperties: false,
        },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
              price: { type: 'number', description: 'Must be >= 0. Must be a multiple of 0.01.' },
              quantity: { type: 'integer', description: 'Must be > 0.' },
            },
            required: ['sku', 'price', 'quantity'],
            additionalProperties: false,
          },
          minItems: 1,
        },
      },
      required: ['id', 'status', 'customer', 'items'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'additionalProperties', 'added'],
      ['', '$schema', 'dropped'],
      ['/properties/note', 'maxLength', 'moved-to-description'],
      ['/properties/customer', 'additionalProperties', 'added'],
      ['/properties/customer/properties/name', 'minLength', 'moved-to-description'],
      ['/properties/items/items/properties/price', 'minimum', 'moved-to-description'],
      ['/properties/items/items/properties/price', 'multipleOf', 'moved-to-description'],
      ['/properties/items/items/properties/quantity', 'exclusiveMinimum', 'moved-to-description'],
    ]);
    expect(lowered.restore({ id: 'x' })).toEqual({ id: 'x' });
  });

  it('keeps minItems 0/1 but describes larger minItems, maxItems and regex features it cannot run', () => {
    const lowered = lower({
      type: 'object',
      properties: {
        pair: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
        word: { type: 'string', pattern: '\\bcat\\b' },
        twice: { type: 'string', pattern: '^(a)\\1$' },
        ahead: { type: 'string', pattern: '^(?=.*\\d)\\w+$' },
        plain: { type: 'string', pattern: '^[\\b]+$' },
      },
      required: ['pair', 'word', 'twice', 'ahead', 'plain'],
      additionalProperties: false,
    });
    expect(lowered.schema.properties).toEqual({
      pair: {
        type: 'array',
        description: 'Must have at least 2 items. Must have at most 2 items.',
        items: { type: 'string' },
      },
      word: { type: 'string', description: 'Must match the regular expression "\\\\bcat\\\\b".' },
      twice: { type: 'string', description: 'Must match the regular expression "^(a)\\\\1$".' },
      ahead: { type: 'string', description: 'Must match the regular expression "^(?=.*\\\\d)\\\\w+$".' },
      plain: { type: 'string', pattern: '^[\\b]+$' },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['/properties/pair', 'minItems', 'moved-to-description'],
      ['/properties/pair', 'maxItems', 'moved-to-description'],
      ['/properties/word', 'pattern', 'moved-to-description'],
      ['/properties/twice', 'pattern', 'moved-to-description'],
      ['/properties/ahead', 'pattern', 'moved-to-description'],
    ]);
  });

  it('turns oneOf into anyOf and keeps primitive enums and [T, "null"]', () => {
    const lowered = lower(unionSchema);
    expect(lowered.schema.properties).toEqual({
      kind: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'integer' }] },
      size: {
        anyOf: [
          { type: 'string', enum: ['S', 'M'] },
          { type: 'integer', enum: [1] },
        ],
      },
      level: { type: 'integer', enum: [1, 2, 3] },
      maybe: { type: ['string', 'null'] },
      either: { description: 'A code or an amount', anyOf: [{ type: 'string' }, { type: 'number' }] },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['/properties/kind', 'oneOf', 'union-rewritten'],
      ['/properties/size', 'enum', 'union-rewritten'],
      ['/properties/either', 'type', 'union-rewritten'],
    ]);
  });

  it('rewrites object values inside enum into exact-match branches', () => {
    const lowered = lower({
      type: 'object',
      properties: { pick: { enum: ['none', { id: 1 }] } },
      required: ['pick'],
      additionalProperties: false,
    });
    expect(lowered.schema.properties).toEqual({
      pick: {
        anyOf: [
          { type: 'string', enum: ['none'] },
          {
            type: 'object',
            properties: { id: { type: 'integer', const: 1 } },
            required: ['id'],
            additionalProperties: false,
          },
        ],
      },
    });
    expect(changeKeys(lowered.changes)).toEqual([['/properties/pick', 'enum', 'union-rewritten']]);
  });

  it('inlines every $ref and drops $defs', () => {
    const lowered = lower(plainDefinitionsSchema);
    const address = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { home: address, work: { ...address, description: 'Office' } },
      required: ['home'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', '$defs', 'dropped'],
      ['/properties/home', '$ref', 'ref-inlined'],
      ['/properties/work', '$ref', 'ref-inlined'],
    ]);
  });

  it('unrolls a recursive definition; the deepest level must have no children', () => {
    const lowered = lowerJsonSchema(definitionsSchema, 'anthropic', { recursionDepth: 2 });
    const leaf = {
      type: 'object',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', description: 'Must have at most 0 items.' },
      },
      required: ['label', 'children'],
      additionalProperties: false,
    };
    const tree = lowered.schema.properties as Record<string, unknown>;
    expect(tree.tree).toEqual({
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: leaf } },
      required: ['label', 'children'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toContainEqual([
      '/$defs/Node/properties/children',
      'items',
      'recursion-unrolled',
    ]);
  });

  it('merges allOf over a $ref', () => {
    const lowered = lower(allOfSchema);
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, extra: { type: 'integer', description: 'Must be >= 1.' } },
      required: ['id', 'extra'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', '$defs', 'dropped'],
      ['', 'allOf', 'union-rewritten'],
      ['', 'additionalProperties', 'added'],
      ['/allOf/0', '$ref', 'ref-inlined'],
      ['/allOf/1/properties/extra', 'minimum', 'moved-to-description'],
    ]);
  });

  it('describes maps and keeps const', () => {
    const lowered = lower(mapAndConstSchema);
    expect(lowered.schema.properties).toEqual({
      counts: {
        type: 'object',
        description: 'May have other keys; the value of each must match {"type":"integer"}.',
        properties: {},
        additionalProperties: false,
      },
      version: { type: 'string', const: 'v1' },
      answer: { type: 'integer', const: 42 },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['/properties/counts', 'additionalProperties', 'moved-to-description'],
    ]);
  });

  it('wraps a non-object root and unwraps the answer', () => {
    const lowered = lower({ type: 'string', enum: ['yes', 'no'] });
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { value: { type: 'string', enum: ['yes', 'no'] } },
      required: ['value'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toEqual([['', 'type', 'added']]);
    expect(lowered.restore({ value: 'yes' })).toBe('yes');
  });
});
