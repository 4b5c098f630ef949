import { describe, expect, it } from 'vitest';
import { findStrictSchemaViolation, formatContext, strictSchemaErrorMessage } from './validate-strict-schema';

const strictObject = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

describe('formatContext', () => {
  it('prints Python tuples, with the trailing comma of one-element tuples', () => {
    expect(formatContext([])).toBe('()');
    expect(formatContext(['$defs'])).toBe("('$defs',)");
    expect(formatContext(['properties', 'a', 'items'])).toBe("('properties', 'a', 'items')");
  });
});

describe('findStrictSchemaViolation', () => {
  it('accepts a schema that follows every rule', () => {
    const schema = strictObject(
      {
        name: { type: 'string', pattern: '^a', format: 'email', description: 'd' },
        count: { type: 'integer', minimum: 0, maximum: 3, multipleOf: 1 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 },
        choice: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        kind: { type: 'string', enum: ['a', 'b'] },
        fixed: { const: 'x' },
        nullable: { type: ['string', 'null'] },
        tree: { $ref: '#/$defs/tree' },
        self: { anyOf: [{ $ref: '#' }, { type: 'null' }] },
      },
      { $defs: { tree: strictObject({ children: { type: 'array', items: { $ref: '#/$defs/tree' } } }) } },
    );
    expect(findStrictSchemaViolation(schema)).toBeUndefined();
  });

  it('reports violations in $defs with their context', () => {
    const violation = findStrictSchemaViolation(
      strictObject({}, { $defs: { node: { type: 'object', properties: {} } } }),
    );
    expect(violation).toEqual({
      context: ['$defs', 'node'],
      message: "'additionalProperties' is required to be supplied and to be false.",
    });
    expect(strictSchemaErrorMessage("response_format 'x'", violation!)).toBe(
      "Invalid schema for response_format 'x': In context=('$defs', 'node'), 'additionalProperties' is required to be supplied and to be false.",
    );
  });

  it('reports extra required keys, missing types, unsupported formats and anyOf branches', () => {
    expect(
      findStrictSchemaViolation({ ...strictObject({ a: { type: 'string' } }), required: ['a', 'b'] })
        ?.message,
    ).toBe(
      "'required' is required to be supplied and to be an array including every key in properties. Extra required key 'b' supplied.",
    );
    expect(findStrictSchemaViolation(strictObject({ a: { description: 'untyped' } }))).toEqual({
      context: ['properties', 'a'],
      message: "schema must have a 'type' key.",
    });
    expect(findStrictSchemaViolation(strictObject({ a: { type: 'string', format: 'uri' } }))?.message).toBe(
      "'format' 'uri' is not supported.",
    );
    expect(
      findStrictSchemaViolation(
        strictObject({ a: { anyOf: [{ type: 'string' }, { type: 'object', properties: {} }] } }),
      ),
    ).toEqual({
      context: ['properties', 'a', 'anyOf', '1'],
      message: "'additionalProperties' is required to be supplied and to be false.",
    });
  });
});
