import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonFromSchema } from '../src/index';
import { rollVariation } from '../src/variation/variation-roll';
import { parseVariationSettings } from '../src/variation/variation-settings';
import { varyStructuredAnswer } from '../src/variation/vary-structured-answer';
import { schemaErrors } from './helpers';

// Caller schemas like the QA suites use: objects of strings, enums, numbers, booleans, arrays and
// nested objects, with any subset required and some types nullable.
const propertyName = fc.constantFrom(
  'id',
  'name',
  'status',
  'total',
  'items',
  'note',
  'tags',
  'customer',
  'score',
);
const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'integer', minimum: 0 }),
  fc.constant({ type: 'number' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: ['string', 'null'] }),
  fc
    .uniqueArray(fc.constantFrom('low', 'medium', 'high', 'urgent'), { minLength: 1, maxLength: 4 })
    .map((values) => ({ type: 'string', enum: values })),
);
const { schema: objectSchema } = fc.letrec<{
  schema: Record<string, unknown>;
  node: Record<string, unknown>;
}>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    leaf,
    tie('schema'),
    tie('node').map((items) => ({ type: 'array', items })),
  ),
  schema: fc
    .uniqueArray(fc.tuple(propertyName, tie('node'), fc.boolean()), {
      minLength: 1,
      maxLength: 5,
      selector: ([name]) => name,
    })
    .map((entries) => ({
      type: 'object',
      properties: Object.fromEntries(entries.map(([name, node]) => [name, node])),
      required: entries.filter(([, , required]) => required).map(([name]) => name),
      additionalProperties: false,
    })),
}));

/** Ajv's verdict on an answer's text; prose around the JSON does not even parse. */
function isValid(schema: object, text: string): boolean {
  try {
    return schemaErrors(schema, JSON.parse(text)) === '';
  } catch {
    return false;
  }
}

// Through each provider's schema lowering (optional properties made nullable, …) this property is
// checked in libs/providers/test/emulator-variation.spec.ts: the emulator cannot depend on providers.
describe('varied answers', () => {
  it('always fail the schema they vary, whatever the schema and the seed', () => {
    fc.assert(
      fc.property(objectSchema, fc.string({ maxLength: 8 }), (schema, seed) => {
        const valid = jsonFromSchema(schema);
        fc.pre(schemaErrors(schema, valid) === '');
        const settings = parseVariationSettings({ seed, rates: { default: 1 } });
        const roll = rollVariation(settings, 'model', JSON.stringify(schema));
        const varied = varyStructuredAnswer(schema, valid, settings, roll!);
        expect(varied).toBeDefined();
        expect(isValid(schema, varied!.text), varied!.text).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
