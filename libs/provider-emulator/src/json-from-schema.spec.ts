import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonFromSchema } from './json-from-schema';

const ajv = new Ajv2020({ strict: false });
addFormats(ajv);

function expectValid(schema: Record<string, unknown>): unknown {
  const value = jsonFromSchema(schema);
  const validate = ajv.compile(schema);
  expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return value;
}

describe('jsonFromSchema', () => {
  it.each([
    [
      'formats',
      {
        type: 'object',
        properties: Object.fromEntries(
          ['date-time', 'date', 'time', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid', 'uri', 'duration'].map(
            (format) => [format, { type: 'string', format }],
          ),
        ),
        required: ['date-time', 'uuid'],
      },
    ],
    [
      'numeric bounds',
      {
        type: 'object',
        properties: {
          a: { type: 'integer', minimum: 5, maximum: 9 },
          b: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
          c: { type: 'integer', multipleOf: 7, minimum: 10 },
          d: { type: 'number', maximum: -3 },
        },
        required: ['a', 'b', 'c', 'd'],
      },
    ],
    [
      'string lengths and patterns',
      {
        type: 'object',
        properties: {
          a: { type: 'string', minLength: 12 },
          b: { type: 'string', maxLength: 3 },
          c: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
          d: { type: 'string', pattern: '^(?:foo|bar)+_[a-f0-9]{2,}$' },
        },
        required: ['a', 'b', 'c', 'd'],
      },
    ],
    ['arrays', { type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 4, uniqueItems: true }],
    ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: false }],
    [
      'enum and const',
      { type: 'object', properties: { a: { enum: ['x', 'y'] }, b: { const: 42 } }, required: ['a', 'b'] },
    ],
    [
      'anyOf and type arrays',
      {
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          b: { type: ['integer', 'null'] },
        },
        required: ['a', 'b'],
      },
    ],
    [
      'allOf',
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'integer' } }, required: ['b'] },
        ],
      },
    ],
    [
      'minProperties',
      { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, minProperties: 1 },
    ],
    [
      'definitions (draft-07 style)',
      {
        type: 'object',
        properties: { a: { $ref: '#/definitions/thing' } },
        required: ['a'],
        definitions: { thing: { type: 'string', enum: ['t'] } },
      },
    ],
  ])('generates a valid instance for %s', (_name, schema) => {
    expectValid(schema as Record<string, unknown>);
  });

  it('terminates on recursive schemas by choosing the shortest branch', () => {
    const value = expectValid({
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['name', 'next', 'children'],
        },
      },
      $ref: '#/$defs/node',
    });
    expect(value).toEqual({
      name: 'example',
      next: { name: 'example', next: null, children: [] },
      children: [{ name: 'example', next: null, children: [] }],
    });
  });

  it("understands Gemini's OpenAPI subset", () => {
    const value = jsonFromSchema({
      type: 'OBJECT',
      properties: {
        b: { type: 'STRING', format: 'enum', enum: ['on', 'off'] },
        a: { type: 'INTEGER', nullable: true },
      },
      propertyOrdering: ['a', 'b'],
    });
    expect(JSON.stringify(value)).toBe('{"a":1,"b":"on"}');
  });

  it('produces valid instances for arbitrary simple schemas', () => {
    const leaf = fc.oneof(
      fc.record(
        { type: fc.constant('string'), minLength: fc.nat(5), maxLength: fc.integer({ min: 5, max: 10 }) },
        { requiredKeys: ['type'] },
      ),
      fc.record({ type: fc.constant('string'), format: fc.constantFrom('email', 'date', 'uuid', 'ipv4') }),
      fc
        .tuple(fc.integer({ min: -50, max: 50 }), fc.nat(20), fc.constantFrom(undefined, 2, 5))
        .map(([minimum, span, multipleOf]) => ({
          type: 'integer',
          minimum,
          maximum: minimum + span + (multipleOf ?? 1) * 2,
          ...(multipleOf === undefined ? {} : { multipleOf }),
        })),
      fc.record({
        type: fc.constant('number'),
        exclusiveMinimum: fc.double({ min: -10, max: 10, noNaN: true }),
      }),
      fc.constant({ type: 'boolean' }),
      fc.array(fc.string(), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
    );
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ type: fc.constant('array'), items: tie('schema'), minItems: fc.nat(3) }),
        fc
          .dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('schema'), { maxKeys: 4 })
          .chain((properties) =>
            fc
              .subarray(Object.keys(properties))
              .map((required) => ({ type: 'object', properties, required, additionalProperties: false })),
          ),
        fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
      ),
    }));
    fc.assert(
      fc.property(schema, (generated) => {
        const value = jsonFromSchema(generated);
        return ajv.validate(generated as object, value);
      }),
      { numRuns: 300 },
    );
  });
});
