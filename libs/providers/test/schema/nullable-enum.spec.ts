import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from '../../src/schema/lower-json-schema';
import type { SchemaTarget } from '../../src/schema/schema-change';
import { validateJson } from '../../src/schema/validate-json';
import { geminiAsJsonSchema } from './gemini-as-json-schema';
import { losslessSchema, realisticSchema, withDefinitions } from './schema-arbitraries';
import { LOWERED_APPLICATORS, walkSchemas, type SchemaObject } from './walk-schema';

/** Spellings of "one of these strings, or null" a caller may write. */
const nullableEnumSpellings: Record<string, SchemaObject> = {
  'type list + enum with null': { type: ['string', 'null'], enum: ['a', 'b', null] },
  'enum with null, no type': { enum: ['a', 'b', null] },
  'anyOf enum | null': { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] },
  'anyOf typed enum | null': { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
  'oneOf enum | null': { oneOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
  'anyOf const | const | null': { anyOf: [{ const: 'a' }, { const: 'b' }, { type: 'null' }] },
};

const inObject = (field: SchemaObject, required: boolean): SchemaObject => ({
  type: 'object',
  properties: { status: field },
  required: required ? ['status'] : [],
  additionalProperties: false,
});

const STRICT_TARGETS = ['openai-strict', 'anthropic'] as const;

function typesOf(schema: SchemaObject): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Every lowered node whose type admits null and that has an enum must list null in it. */
function expectNullListedWhereAllowed(lowered: SchemaObject): void {
  for (const { schema, pointer } of walkSchemas(lowered, LOWERED_APPLICATORS)) {
    if (Array.isArray(schema.enum) && typesOf(schema).includes('null'))
      expect(schema.enum, `enum at ${pointer || '/'}`).toContain(null);
  }
}

/** The lowered schema as the target reads it, for Ajv. */
function asTargetReadsIt(target: SchemaTarget, lowered: SchemaObject): SchemaObject {
  return target === 'gemini' ? (geminiAsJsonSchema(lowered) as SchemaObject) : lowered;
}

describe('an enum that allows null', () => {
  describe.each(Object.entries(nullableEnumSpellings))('%s', (_name, field) => {
    it.each(STRICT_TARGETS)(
      '%s: the enum lists null, null and the values are accepted, others are not',
      (target) => {
        for (const required of [true, false]) {
          const schema = inObject(field, required);
          const lowered = lowerJsonSchema(schema, target);
          expectNullListedWhereAllowed(lowered.schema);
          for (const status of ['a', 'b', null])
            expect(validateJson(lowered.schema, { status }).valid, JSON.stringify(status)).toBe(true);
          expect(validateJson(lowered.schema, { status: 'c' }).valid).toBe(false);
        }
      },
    );

    it('gemini: nullable string enum without a null entry (refused by Gemini), reported', () => {
      const lowered = lowerJsonSchema(inObject(field, true), 'gemini');
      const enums = [...walkSchemas(lowered.schema, LOWERED_APPLICATORS)].filter(({ schema }) =>
        Array.isArray(schema.enum),
      );
      expect(enums.length).toBeGreaterThan(0);
      for (const { schema } of enums) {
        expect(schema).toMatchObject({ type: 'string', nullable: true });
        expect((schema.enum as unknown[]).every((value) => typeof value === 'string')).toBe(true);
      }
      expect(lowered.changes.find((change) => change.keyword === 'enum')?.detail).toMatch(
        /null is not listed in "enum"; "nullable": true is what allows null/,
      );
      const readable = asTargetReadsIt('gemini', lowered.schema);
      for (const value of ['a', 'b', null])
        expect(validateJson(readable, { status: value }).valid).toBe(true);
      expect(validateJson(readable, { status: 'c' }).valid).toBe(false);
    });
  });

  it.each(['openai-strict', 'anthropic', 'gemini'] as const)(
    '%s: ["string","null"] with an enum that lacks null does not allow null (as the original)',
    (target) => {
      const schema = inObject({ type: ['string', 'null'], enum: ['a', 'b'] }, true);
      expect(validateJson(schema, { status: null }).valid).toBe(false);
      const lowered = asTargetReadsIt(target, lowerJsonSchema(schema, target).schema);
      expect((lowered.properties as Record<string, SchemaObject>).status).toMatchObject({
        type: 'string',
        enum: ['a', 'b'],
      });
      expect(validateJson(lowered, { status: null }).valid).toBe(false);
    },
  );

  it('openai-strict: an optional enum made nullable lists null', () => {
    const lowered = lowerJsonSchema(inObject({ type: 'string', enum: ['a', 'b'] }, false), 'openai-strict');
    expect((lowered.schema.properties as Record<string, SchemaObject>).status).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
  });

  it.each(STRICT_TARGETS)('%s: in any schema, a lowered enum whose type admits null lists null', (target) => {
    fc.assert(
      fc.property(fc.oneof(withDefinitions(losslessSchema), withDefinitions(realisticSchema)), (schema) => {
        expectNullListedWhereAllowed(lowerJsonSchema(schema, target).schema);
      }),
      { numRuns: 200 },
    );
  });
});
