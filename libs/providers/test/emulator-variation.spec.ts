import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callerObjectSchema } from '@agentdesk/provider-emulator/testing';
import { executeChatCompletion, type JsonSchema } from '../src';
import { models, providerNames, useEmulator } from './support/emulator-clients';

// The provider emulator's seeded variation (libs/provider-emulator, "Seeded variation") must make
// answers that really fail: checked here, through each provider's schema lowering and restore, with
// the validation QA suites use.

describe('the emulator’s varied structured-output answers', () => {
  const { emulator, clients } = useEmulator();

  it('fail validation against the caller’s schema on every provider', async () => {
    await fc.assert(
      fc.asyncProperty(
        callerObjectSchema,
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
