import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonFromSchema } from '../src/index';
import { rollVariation } from '../src/variation/variation-roll';
import { parseVariationSettings } from '../src/variation/variation-settings';
import { varyStructuredAnswer } from '../src/variation/vary-structured-answer';
import { schemaErrors } from './helpers';
import { callerObjectSchema } from '../src/testing';

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
      fc.property(callerObjectSchema, fc.string({ maxLength: 8 }), (schema, seed) => {
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
