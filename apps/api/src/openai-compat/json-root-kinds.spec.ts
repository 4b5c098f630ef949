import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestedRootKinds, rootKindOfStart, schemaRootKinds } from './json-root-kinds';

const kinds = (schema: unknown) => [...schemaRootKinds(schema)].sort();

describe('schemaRootKinds', () => {
  it('reads the root’s type, nullable, enum, const, anyOf/oneOf and allOf', () => {
    expect(kinds({ type: 'object', properties: {} })).toEqual(['object']);
    expect(kinds({ type: ['array', 'null'] })).toEqual(['array', 'scalar']);
    expect(kinds({ type: 'object', nullable: true })).toEqual(['object', 'scalar']);
    expect(kinds({ enum: ['a', 1] })).toEqual(['scalar']);
    expect(kinds({ const: { a: 1 } })).toEqual(['object']);
    expect(kinds({ anyOf: [{ type: 'object' }, { type: 'array' }] })).toEqual(['array', 'object']);
    expect(kinds({ oneOf: [{ type: 'string' }] })).toEqual(['scalar']);
    expect(kinds({ allOf: [{ type: ['object', 'array'] }, { type: 'array' }] })).toEqual(['array']);
  });

  it('allows every kind where it cannot tell: no type, a $ref, a contradiction, no schema', () => {
    for (const schema of [
      {},
      { $ref: '#/$defs/x' },
      { allOf: [{ type: 'object' }, { type: 'array' }] },
      undefined,
    ])
      expect(kinds(schema)).toEqual(['array', 'object', 'scalar']);
  });

  it('always allows what a value valid for a typed schema starts with (a superset of the truth)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), (value) => {
        const type = Array.isArray(value)
          ? 'array'
          : value === null
            ? 'null'
            : typeof value === 'object'
              ? 'object'
              : typeof value;
        const start = rootKindOfStart(JSON.stringify(value)[0]!);
        expect(start).not.toBe('prose');
        for (const schema of [{ type }, { anyOf: [{ type }, { type: 'boolean' }] }, { const: value }])
          expect(schemaRootKinds(schema).has(start as never)).toBe(true);
      }),
    );
  });
});

describe('requestedRootKinds', () => {
  it('allows only objects for json_object, the schema’s kinds for json_schema', () => {
    expect([...requestedRootKinds({ type: 'json_object' })]).toEqual(['object']);
    const schema = { type: 'json_schema' as const, json_schema: { name: 'x', schema: { type: 'array' } } };
    expect([...requestedRootKinds(schema)]).toEqual(['array']);
  });
});
