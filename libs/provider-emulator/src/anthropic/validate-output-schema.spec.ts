import { describe, expect, it } from 'vitest';
import { findOutputSchemaViolation } from './validate-output-schema';

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

describe('findOutputSchemaViolation', () => {
  it('accepts what the SDK transform produces: formats, minItems 0/1, enums, anyOf, non-recursive refs', () => {
    const schema = closed(
      {
        when: { type: 'string', format: 'date-time' },
        site: { type: 'string', format: 'uri' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        mood: { enum: ['a', 1, true, null] },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        person: { $ref: '#/$defs/person' },
        other: { $ref: '#/$defs/person' },
        code: { type: 'string', pattern: '^[A-Z]{2}\\d+$' },
      },
      { $defs: { person: closed({ name: { type: 'string', description: '{minLength: 1}' } }) } },
    );
    expect(findOutputSchemaViolation(schema)).toBeUndefined();
  });

  it.each([
    [
      'recursion through the root',
      closed({ self: { anyOf: [{ $ref: '#' }, { type: 'null' }] } }),
      'Recursive schemas are not supported',
    ],
    ['complex enum values', closed({ a: { enum: [{ x: 1 }] } }), 'complex types are not supported'],
    [
      'allOf with $ref',
      closed({ a: { allOf: [{ $ref: '#/$defs/b' }] } }, { $defs: { b: { type: 'string' } } }),
      "'allOf' combined with '$ref'",
    ],
    ['lookaround in a pattern', closed({ a: { type: 'string', pattern: '^(?!x)' } }), 'lookaround'],
    ['backreferences', closed({ a: { type: 'string', pattern: '(a)\\1' } }), 'backreferences'],
    ['an unresolvable ref', closed({ a: { $ref: '#/$defs/missing' } }), 'does not resolve'],
    [
      'exclusiveMinimum',
      closed({ a: { type: 'number', exclusiveMinimum: 0 } }),
      "property 'exclusiveMinimum' is not supported",
    ],
  ])('rejects %s', (_name, schema, message) => {
    expect(findOutputSchemaViolation(schema)).toContain(message);
  });
});
