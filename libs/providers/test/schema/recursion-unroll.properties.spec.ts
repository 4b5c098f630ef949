import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerJsonSchema } from '../../src/schema/lower-json-schema';
import { ROOT_WRAPPER_PROPERTY, unwrapRootValue } from '../../src/schema/root-wrap';
import { validateJson } from '../../src/schema/validate-json';
import { geminiAsJsonSchema, schemaNesting } from './gemini-as-json-schema';
import { recursiveSchema, unrollableRecursiveSchema } from './schema-arbitraries';
import { valueArbitrary } from './value-arbitrary';
import type { SchemaObject } from './walk-schema';

const RUNS = { numRuns: 100 };

/** Leaves whose every constraint Gemini enforces, so answers under the lowered schema are exact. */
const enforcedLeaf: fc.Arbitrary<SchemaObject> = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: ['string', 'null'] }),
  fc.constant({ type: 'string', enum: ['red', 'green'] }),
  fc.constant({ type: ['string', 'null'], enum: ['red', null] }),
  fc.constant({ type: 'integer', minimum: 0, maximum: 9 }),
);

const depth = fc.integer({ min: 1, max: 5 });
const cases = fc.record({
  schema: fc.oneof(unrollableRecursiveSchema(enforcedLeaf), recursiveSchema),
  depth,
});
/** Only leaves Gemini enforces exactly, so an answer valid under its lowering is an exact answer. */
const exactCases = fc.record({ schema: unrollableRecursiveSchema(enforcedLeaf), depth });

/** The Gemini lowering as JSON Schema; "Must be null." is the described null-only type. */
function geminiForAjv(lowered: unknown): SchemaObject {
  const nullOnly = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(nullOnly);
    if (typeof schema !== 'object' || schema === null) return schema;
    const record = schema as SchemaObject;
    if (record.description === 'Must be null.') return { type: 'null' };
    return Object.fromEntries(
      Object.entries(record).map(([key, value]) => [
        key,
        key === 'properties'
          ? Object.fromEntries(
              Object.entries(value as SchemaObject).map(([name, child]) => [name, nullOnly(child)]),
            )
          : key === 'items' || key === 'anyOf'
            ? nullOnly(value)
            : value,
      ]),
    );
  };
  return nullOnly(geminiAsJsonSchema(lowered)) as SchemaObject;
}

describe('unrolling recursive schemas (properties)', () => {
  it.each(['gemini', 'anthropic'] as const)(
    '%s: no $ref is left and the nesting is bounded by the unroll depth',
    (target) => {
      fc.assert(
        fc.property(cases, ({ schema, depth }) => {
          const lowered = lowerJsonSchema(schema, target, { recursionDepth: depth });
          const text = JSON.stringify(lowered.schema);
          expect(text).not.toContain('"$ref"');
          expect(text).not.toContain('"$defs"');
          expect(schemaNesting(lowered.schema)).toBeLessThanOrEqual((depth + 1) * schemaNesting(schema));
          expect(lowered.changes.some((change) => change.action === 'recursion-unrolled')).toBe(true);
        }),
        RUNS,
      );
    },
  );

  it('a deeper unroll depth gives a deeper lowered schema', () => {
    fc.assert(
      fc.property(cases, ({ schema, depth }) => {
        const shallow = lowerJsonSchema(schema, 'gemini', { recursionDepth: depth });
        const deeper = lowerJsonSchema(schema, 'gemini', { recursionDepth: depth + 1 });
        expect(schemaNesting(deeper.schema)).toBeGreaterThan(schemaNesting(shallow.schema));
      }),
      RUNS,
    );
  });

  it('every answer within the unrolled depth validates against the Gemini and Anthropic lowerings and the original', () => {
    const withAnswers = exactCases.chain(({ schema, depth }) => {
      const gemini = geminiForAjv(lowerJsonSchema(schema, 'gemini', { recursionDepth: depth }).schema);
      const anthropic = lowerJsonSchema(schema, 'anthropic', { recursionDepth: depth });
      return fc.tuple(fc.constant({ schema, gemini, anthropic }), valueArbitrary(gemini, gemini));
    });
    fc.assert(
      fc.property(withAnswers, ([{ schema, gemini, anthropic }, answer]) => {
        // The generator is checked too: the answer really is valid under the lowered schema.
        expect(validateJson(gemini, answer).errors).toEqual([]);
        // Anthropic wraps a root that may not be an object; the model answers inside the wrapper.
        const wrapped = anthropic.restore === unwrapRootValue;
        const anthropicAnswer = wrapped ? { [ROOT_WRAPPER_PROPERTY]: answer } : answer;
        expect(validateJson(anthropic.schema, anthropicAnswer).errors).toEqual([]);
        expect(anthropic.restore(anthropicAnswer)).toEqual(answer);
        expect(validateJson(schema, answer).errors).toEqual([]);
      }),
      RUNS,
    );
  });
});
