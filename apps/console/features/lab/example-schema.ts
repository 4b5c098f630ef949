/** The schema the lab's editor opens with: small, valid, and using limits each provider lowers differently. */
export const exampleSchemaText = JSON.stringify(
  {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1 },
      rating: { type: 'integer', minimum: 1, maximum: 5 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    },
    required: ['title', 'rating'],
    additionalProperties: false,
  },
  null,
  2,
);
