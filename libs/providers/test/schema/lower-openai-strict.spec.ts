import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from '../../src/schema/lower-json-schema';
import { SchemaLoweringError } from '../../src/schema/schema-lowering-error';
import {
  allOfSchema,
  changeKeys,
  definitionsSchema,
  mapAndConstSchema,
  orderSchema,
  unionSchema,
} from './fixtures';

const lower = (schema: Record<string, unknown>) => lowerJsonSchema(schema, 'openai-strict');

describe('lowerJsonSchema → openai-strict', () => {
  it('closes every object, requires every key, makes optional properties nullable and keeps supported constraints', () => {
    const lowered = lower(orderSchema);
    expect(lowered.target).toBe('openai-strict');
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: ['open', 'paid'] },
        note: { type: ['string', 'null'], description: 'Must be at most 200 characters long.' },
        customer: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Must be at least 1 character long.' },
            website: { type: ['string', 'null'], description: 'Must be a valid uri (format "uri").' },
          },
          required: ['name', 'website'],
          additionalProperties: false,
        },
        items: {
          type: 'array',
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
          minItems: 1,
        },
      },
      required: ['id', 'status', 'note', 'customer', 'items'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'additionalProperties', 'added'],
      ['', '$schema', 'dropped'],
      ['/properties/note', 'maxLength', 'moved-to-description'],
      ['/properties/note', 'required', 'made-required-nullable'],
      ['/properties/customer', 'additionalProperties', 'added'],
      ['/properties/customer/properties/name', 'minLength', 'moved-to-description'],
      ['/properties/customer/properties/website', 'format', 'moved-to-description'],
      ['/properties/customer/properties/website', 'required', 'made-required-nullable'],
    ]);
    expect(lowered.changes.find((change) => change.keyword === 'maxLength')?.detail).toContain(
      'Must be at most 200 characters long.',
    );
  });

  it('turns oneOf into anyOf, splits mixed enums and multi-type arrays, keeps [T, "null"]', () => {
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

  it('keeps $defs and local $ref (recursion included), inlines a $ref that has siblings, drops unused definitions', () => {
    const lowered = lower(definitionsSchema);
    const address = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Address' },
        work: { ...address, type: ['object', 'null'], description: 'Office' },
        tree: { $ref: '#/$defs/Node' },
      },
      required: ['home', 'work', 'tree'],
      additionalProperties: false,
      $defs: {
        Address: address,
        Node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
          required: ['label', 'children'],
          additionalProperties: false,
        },
      },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['/properties/work', '$ref', 'ref-inlined'],
      ['/properties/work', 'required', 'made-required-nullable'],
      ['/$defs/Unused', '$defs', 'dropped'],
    ]);
  });

  it('moves draft-07 "definitions" under $defs and hoists references to other locations', () => {
    const lowered = lower({
      type: 'object',
      properties: { a: { $ref: '#/definitions/A' }, b: { $ref: '#/properties/a' } },
      required: ['a', 'b'],
      additionalProperties: false,
      definitions: { A: { type: 'string' } },
    });
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/ref_properties_a' } },
      required: ['a', 'b'],
      additionalProperties: false,
      $defs: { A: { type: 'string' }, ref_properties_a: { $ref: '#/$defs/A' } },
    });
    expect(lowered.changes).toEqual([]);
  });

  it('wraps a recursive $ref that carries a description instead of inlining it forever', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, next: { $ref: '#', description: 'The next item' } },
      required: ['name', 'next'],
      additionalProperties: false,
    };
    expect(lower(schema).schema.properties).toEqual({
      name: { type: 'string' },
      next: { description: 'The next item', anyOf: [{ $ref: '#' }] },
    });
  });

  it('inlines a root $ref (the root must be an object) and keeps the recursive uses as references', () => {
    const schema = {
      $ref: '#/$defs/Item',
      $defs: {
        Item: {
          type: 'object',
          properties: { parts: { type: 'array', items: { $ref: '#/$defs/Item' } } },
          required: ['parts'],
        },
      },
    };
    const lowered = lower(schema);
    const item = {
      type: 'object',
      properties: { parts: { type: 'array', items: { $ref: '#/$defs/Item' } } },
      required: ['parts'],
      additionalProperties: false,
    };
    expect(lowered.schema).toEqual({ ...item, $defs: { Item: item } });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', '$ref', 'ref-inlined'],
      ['/$defs/Item', 'additionalProperties', 'added'],
    ]);
  });

  it('merges allOf (through $ref) into one object', () => {
    const lowered = lower(allOfSchema);
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, extra: { type: 'integer', minimum: 1 } },
      required: ['id', 'extra'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'allOf', 'union-rewritten'],
      ['', 'additionalProperties', 'added'],
      ['/allOf/0', '$ref', 'ref-inlined'],
    ]);
  });

  it('describes the parts of an allOf that cannot be merged', () => {
    const lowered = lower({ allOf: [{ type: 'string', pattern: '^a' }, { pattern: 'b$' }] });
    expect(lowered.schema.properties).toEqual({
      value: { type: 'string', description: 'Must match the regular expression "b$".', pattern: '^a' },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'allOf', 'union-rewritten'],
      ['', 'type', 'added'],
      ['/allOf/1', 'pattern', 'moved-to-description'],
    ]);
  });

  it('describes maps (additionalProperties schemas) and keeps const', () => {
    const lowered = lower(mapAndConstSchema);
    expect(lowered.schema.properties).toEqual({
      counts: {
        type: 'object',
        description: 'May have other keys; the value of each must match {"type":"integer"}.',
        properties: {},
        required: [],
        additionalProperties: false,
      },
      version: { type: 'string', const: 'v1' },
      answer: { type: 'integer', const: 42 },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['/properties/counts', 'additionalProperties', 'moved-to-description'],
    ]);
  });

  it('wraps a non-object root as {value: …} and reports it', () => {
    const lowered = lower({ type: 'array', items: { type: 'string' }, maxItems: 3 });
    expect(lowered.schema).toEqual({
      type: 'object',
      properties: { value: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
      required: ['value'],
      additionalProperties: false,
    });
    expect(changeKeys(lowered.changes)).toEqual([['', 'type', 'added']]);
    expect(lowered.restore({ value: ['a'] })).toEqual(['a']);
  });

  it('gives untyped and array-without-items schemas a type, and reports it', () => {
    const lowered = lower({
      type: 'object',
      properties: { anything: {}, list: { type: 'array' } },
      required: ['anything', 'list'],
    });
    const primitives = {
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
    };
    expect(lowered.schema.properties).toEqual({
      anything: primitives,
      list: { type: 'array', items: primitives },
    });
    expect(changeKeys(lowered.changes)).toEqual([
      ['', 'additionalProperties', 'added'],
      ['/properties/anything', 'type', 'added'],
      ['/properties/list', 'items', 'added'],
    ]);
  });

  it('rejects what no target can send with a typed error that says where', () => {
    const attempt = (schema: Record<string, unknown>) => {
      try {
        lower(schema);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const external = attempt({ type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } });
    expect(external).toBeInstanceOf(SchemaLoweringError);
    expect(external).toMatchObject({ code: 'unresolvable-ref', pointer: '/properties/a' });
    expect(attempt({ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } })).toMatchObject({
      code: 'unresolvable-ref',
    });
    expect(attempt({ type: 'object', properties: { a: { enum: [] } } })).toMatchObject({
      code: 'invalid-schema',
      pointer: '/properties/a',
    });
    expect(attempt({ type: 'object', properties: { a: { type: 'strin' } } })).toMatchObject({
      code: 'invalid-schema',
      pointer: '/properties/a',
    });
    expect(attempt({ allOf: [{ type: 'string' }, { type: 'integer' }] })).toMatchObject({
      code: 'invalid-schema',
    });
  });
});
