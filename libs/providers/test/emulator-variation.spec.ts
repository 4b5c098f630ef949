import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { executeChatCompletion, type JsonSchema } from '../src';
import { models, providerNames, useEmulator } from './support/emulator-clients';

// The provider emulator's seeded variation (libs/provider-emulator, "Seeded variation") must make
// answers that really fail: checked here, through each provider's schema lowering and restore, with
// the validation QA suites use.

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

describe('the emulator’s varied structured-output answers', () => {
  const { emulator, clients } = useEmulator();

  it('fail validation against the caller’s schema on every provider', async () => {
    await fc.assert(
      fc.asyncProperty(
        objectSchema,
        fc.constantFrom(...providerNames),
        fc.integer(),
        async (schema, provider, seed) => {
          const call = () =>
            executeChatCompletion(clients()[provider], {
              modelParams: { model: models[provider] },
              messages: [{ role: 'user', content: 'Extract the record.' }],
              responseFormat: {
                type: 'json_schema',
                json_schema: { name: 'record', schema: schema as JsonSchema, strict: true },
              },
            });
          emulator().setVariation(undefined);
          // Out of reach when the emulator's plain answer is not valid for the caller already.
          fc.pre((await call()).validation?.valid === true);
          emulator().setVariation({ seed, rates: { default: 1 } });
          try {
            const varied = await call();
            expect(varied.validation?.valid, varied.text).toBe(false);
          } finally {
            emulator().setVariation(undefined);
          }
        },
      ),
      { numRuns: 90 },
    );
  });
});
