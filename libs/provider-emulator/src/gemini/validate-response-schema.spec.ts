import { describe, expect, it } from 'vitest';
import { findSchemaParseViolations, findSchemaSemanticViolations } from './validate-response-schema';

describe('findSchemaParseViolations', () => {
  it('accepts every field of the OpenAPI subset, in either spelling', () => {
    const schema = {
      type: 'object',
      title: 't',
      description: 'd',
      nullable: false,
      properties: {
        a: {
          type: 'STRING',
          format: 'enum',
          enum: ['x'],
          minLength: 1,
          max_length: 3,
          pattern: '^x$',
          default: 'x',
          example: 'x',
        },
        b: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 2 }, minItems: 1, maxItems: 2 },
        c: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        d: {
          type: 'object',
          properties: { e: { type: 'boolean' } },
          minProperties: 1,
          max_properties: 2,
          propertyOrdering: ['e'],
        },
      },
      required: ['a'],
    };
    expect(findSchemaParseViolations(schema)).toEqual([]);
    expect(findSchemaSemanticViolations(schema)).toEqual([]);
  });

  it('reports every unknown field with its proto path', () => {
    const violations = findSchemaParseViolations({
      type: 'object',
      $schema: 'x',
      properties: { a: { type: 'string' }, b: { anyOf: [{ type: 'string', const: 'x' }] } },
      additionalProperties: false,
    });
    expect(violations.map((violation) => violation.description)).toEqual([
      `Invalid JSON payload received. Unknown name "$schema" at 'generation_config.response_schema': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "const" at 'generation_config.response_schema.properties[1].value.any_of[0]': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "additionalProperties" at 'generation_config.response_schema': Cannot find field.`,
    ]);
  });

  it('rejects type arrays, unknown type names and non-string enum values', () => {
    const violations = findSchemaParseViolations({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'text' },
        c: { type: 'integer', enum: [1, 2] },
      },
    });
    expect(violations.map((violation) => violation.field)).toEqual([
      'generation_config.response_schema.properties[0].value.type',
      'generation_config.response_schema.properties[1].value.type',
      'generation_config.response_schema.properties[2].value.enum[0]',
      'generation_config.response_schema.properties[2].value.enum[1]',
    ]);
  });
});

describe('findSchemaSemanticViolations', () => {
  it('requires properties on OBJECT types and defined required names', () => {
    expect(
      findSchemaSemanticViolations({
        type: 'object',
        properties: { a: { type: 'object' } },
        required: ['a', 'z'],
      }),
    ).toEqual([
      '* GenerateContentRequest.generation_config.response_schema.required[1]: property is not defined',
      '* GenerateContentRequest.generation_config.response_schema.properties[0].value.properties: should be non-empty for OBJECT type',
    ]);
  });
});
