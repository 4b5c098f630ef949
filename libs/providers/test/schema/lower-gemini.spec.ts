import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from '../../src/schema/lower-json-schema';
import {
  allOfSchema,
  changeKeys,
  mapAndConstSchema,
  orderSchema,
  plainDefinitionsSchema,
  unionSchema,
} from './fixtures';

const lower = (schema: Record<string, unknown>) => lowerJsonSchema(schema, 'gemini');

describe('lowerJsonSchema → gemini', () => {
  it('keeps OpenAPI-subset constraints, drops additionalProperties, adds propertyOrdering', () => {
    const lowered = lower(orderSchema);
    expect(lowered.target).toBe('gemini');
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Must be a valid uuid (format "uuid").' },
        status: { type: 'string', enum: ['open', 'paid'] },
        note: { type: 'string', maxLength: 200 },
        customer: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1 },
            website: { type: 'string', description: 'Must be a valid uri (format "uri").' },
          },
          required: ['name'],
          propertyOrdering: ['name', 'website'],
        },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
              price: { type: 'number', description: 'Must be a multiple of 0.01.', minimum: 0 },
              quantity: { type: 'integer', description: 'Must be > 0.' },
            },
            required: ['sku', 'price', 'quantity'],
            propertyOrdering: ['sku', 'price', 'quantity'],
          },
          minItems: 1,
        },
      },
      required: ['id', 'status', 'customer', 'items'],
      propertyOrdering: ['id', 'status', 'note', 'customer', 'items'],
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'propertyOrdering', 'added'],
      ['', '$schema', 'dropped'],
      ['/properties/id', 'format', 'moved-to-description'],
      ['/properties/customer', 'propertyOrdering', 'added'],
      ['/properties/customer/properties/website', 'format', 'moved-to-description'],
      ['/properties/items/items', 'propertyOrdering', 'added'],
      ['/properties/items/items', 'additionalProperties', 'dropped'],
      ['/properties/items/items/properties/price', 'multipleOf', 'moved-to-description'],
      ['/properties/items/items/properties/quantity', 'exclusiveMinimum', 'moved-to-description'],
    ]);
    expect(lowered.restore({ id: 'x' })).toEqual({ id: 'x' });
  });

  it('turns [T, "null"] into nullable, non-string enums into descriptions and oneOf into anyOf', () => {
    const lowered = lower(unionSchema);
    expect(lowered.schema.properties).toEqual({
      kind: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'integer' }] },
      size: {
        anyOf: [
          { type: 'string', enum: ['S', 'M'] },
          { type: 'integer', description: 'Must be exactly 1.' },
        ],
      },
      level: { type: 'integer', description: 'Must be one of: 1, 2, 3.' },
      maybe: { type: 'string', nullable: true },
      either: { description: 'A code or an amount', anyOf: [{ type: 'string' }, { type: 'number' }] },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'propertyOrdering', 'added'],
      ['', 'additionalProperties', 'dropped'],
      ['/properties/kind', 'oneOf', 'union-rewritten'],
      ['/properties/size', 'enum', 'union-rewritten'],
      ['/properties/size', 'enum', 'moved-to-description'],
      ['/properties/level', 'enum', 'moved-to-description'],
      ['/properties/maybe', 'type', 'union-rewritten'],
      ['/properties/either', 'type', 'union-rewritten'],
    ]);
  });

  it('folds a null branch of anyOf into nullable (pydantic Optional[X])', () => {
    const lowered = lower({
      type: 'object',
      properties: {
        when: {
          anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
          description: 'Due date',
          default: null,
        },
      },
    });
    expect(lowered.schema.properties).toEqual({
      when: { type: 'string', nullable: true, format: 'date-time', default: null, description: 'Due date' },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'propertyOrdering', 'added'],
      ['/properties/when/anyOf/1', 'type', 'union-rewritten'],
    ]);
  });

  it('inlines every non-recursive $ref and drops $defs', () => {
    const lowered = lower(plainDefinitionsSchema);
    const address = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      propertyOrdering: ['city'],
    };
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { home: address, work: { ...address, description: 'Office' } },
      required: ['home'],
      propertyOrdering: ['home', 'work'],
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', '$defs', 'dropped'],
      ['', 'propertyOrdering', 'added'],
      ['', 'additionalProperties', 'dropped'],
      ['/properties/home', '$ref', 'ref-inlined'],
      ['/properties/work', '$ref', 'ref-inlined'],
      ['/properties/work', 'propertyOrdering', 'added'],
      ['/$defs/Address', 'propertyOrdering', 'added'],
      ['/$defs/Address', 'additionalProperties', 'dropped'],
    ]);
  });

  it('merges allOf', () => {
    expect(lower(allOfSchema).schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, extra: { type: 'integer', minimum: 1 } },
      required: ['id', 'extra'],
      propertyOrdering: ['id', 'extra'],
    });
  });

  it('turns a string const into a one-value enum and describes other consts and maps', () => {
    const lowered = lower(mapAndConstSchema);
    expect(lowered.schema.properties).toEqual({
      counts: {
        type: 'object',
        description: 'May have other keys; the value of each must match {"type":"integer"}.',
      },
      version: { type: 'string', enum: ['v1'] },
      answer: { type: 'integer', description: 'Must be exactly 42.' },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'propertyOrdering', 'added'],
      ['', 'additionalProperties', 'dropped'],
      ['/properties/counts', 'additionalProperties', 'moved-to-description'],
      ['/properties/version', 'const', 'union-rewritten'],
      ['/properties/answer', 'const', 'moved-to-description'],
    ]);
  });

  it('splits multi-type arrays into anyOf with each type keeping its own constraints', () => {
    const lowered = lower({
      type: ['string', 'integer', 'null'],
      minLength: 2,
      maximum: 9,
      description: 'Code',
    });
    expect(lowered.schema).toEqual({
      description: 'Code',
      anyOf: [
        { type: 'string', nullable: true, minLength: 2 },
        { type: 'integer', nullable: true, maximum: 9 },
      ],
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'type', 'union-rewritten'],
      ['', 'type', 'union-rewritten'],
    ]);
  });

  it('does not wrap non-object roots', () => {
    const lowered = lower({ type: 'array', items: { type: 'string' }, maxItems: 3 });
    expect(lowered.schema).toEqual({ type: 'array', items: { type: 'string' }, maxItems: 3 });
    expect(lowered.changes).toEqual([]);
    expect(lowered.restore(['a'])).toEqual(['a']);
  });
});
