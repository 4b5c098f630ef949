import { describe, expect, it } from 'vitest';
import { validateJson } from './validate-json';

const orderSchema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    status: { enum: ['open', 'paid'] },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { price: { type: 'number', minimum: 0 } },
        required: ['price'],
        additionalProperties: false,
      },
    },
  },
  required: ['email', 'items'],
};

describe('validateJson', () => {
  it('accepts a valid value', () => {
    expect(validateJson(orderSchema, { email: 'a@b.co', items: [{ price: 1 }] })).toEqual({
      valid: true,
      errors: [],
    });
  });

  it('reports every failure with a pointer into the value and a specific message', () => {
    const result = validateJson(orderSchema, {
      email: 'not-an-email',
      status: 'lost',
      items: [{ price: 1 }, { price: 2 }, { price: -1, colour: 'red' }, {}],
    });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { path: '/email', keyword: 'format', message: '/email must match format "email"' },
      { path: '/status', keyword: 'enum', message: '/status must be one of ["open","paid"]' },
      {
        path: '/items/2/colour',
        keyword: 'additionalProperties',
        message: '/items/2/colour is not allowed (no such property in the schema)',
      },
      { path: '/items/2/price', keyword: 'minimum', message: '/items/2/price must be >= 0' },
      { path: '/items/3/price', keyword: 'required', message: '/items/3/price is required but missing' },
    ]);
  });

  it('uses the draft-07 dialect when $schema says so, 2020-12 otherwise', () => {
    const tuple07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
    };
    expect(validateJson(tuple07, ['a', 1]).valid).toBe(true);
    expect(validateJson(tuple07, ['a', 'b']).errors).toEqual([
      { path: '/1', keyword: 'type', message: '/1 must be number' },
    ]);

    const tuple2020 = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
    expect(validateJson(tuple2020, ['a']).valid).toBe(true);
    expect(validateJson(tuple2020, ['a', 'b']).valid).toBe(false);
    const declared2020 = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { n: { type: 'number' } },
      $ref: '#/$defs/n',
    };
    expect(validateJson(declared2020, 'x').errors).toEqual([
      { path: '', keyword: 'type', message: '/ must be number' },
    ]);
  });

  it('reports a schema Ajv cannot compile as one issue instead of throwing', () => {
    const result = validateJson({ type: 'no-such-type' }, 1);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ path: '', keyword: 'schema' });
    expect(result.errors[0]?.message).toMatch(/^The schema could not be compiled: /);
    expect(validateJson({ $ref: 'https://elsewhere.example/schema.json' }, 1).errors[0]?.keyword).toBe(
      'schema',
    );
  });

  it('keeps schemas with the same $id apart', () => {
    const first = {
      $id: 'https://example.com/root',
      type: 'object',
      properties: { a: { $id: 'https://example.com/a', type: 'string' } },
    };
    const second = {
      $id: 'https://example.com/root',
      type: 'object',
      properties: { a: { $id: 'https://example.com/a', type: 'number' } },
    };
    expect(validateJson(first, { a: 'x' }).valid).toBe(true);
    expect(validateJson(second, { a: 1 }).valid).toBe(true);
    expect(validateJson(second, { a: 'x' }).valid).toBe(false);
    expect(validateJson(first, { a: 1 }).valid).toBe(false);
  });

  it('gives the same answers from its caches, also after many other schemas', () => {
    const schema = { type: 'integer', maximum: 3 };
    expect(validateJson(schema, 4).valid).toBe(false);
    for (let index = 0; index < 300; index += 1) validateJson({ type: 'integer', maximum: index }, index);
    expect(validateJson(schema, 4).valid).toBe(false);
    expect(validateJson({ ...schema }, 2).valid).toBe(true);
  });
});
