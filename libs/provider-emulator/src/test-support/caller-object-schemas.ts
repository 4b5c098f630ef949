import fc from 'fast-check';

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

/**
 * Caller schemas like the QA suites use: objects of strings, enums, numbers, booleans, arrays and
 * nested objects, with any subset required and some types nullable. One generator for the
 * emulator's own variation property and the providers' one through each schema lowering.
 */
export const callerObjectSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{
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
})).schema;
