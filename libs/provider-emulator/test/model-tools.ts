/** Tools shared by the default-model-behaviour tests of the three wire formats. */

/** A schema with the constraints a generated argument must keep: required fields, an enum, bounds. */
export const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    units: { type: 'string', enum: ['metric', 'imperial'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
  },
  required: ['city', 'units', 'days'],
  additionalProperties: false,
};

export const timeParameters = {
  type: 'object',
  properties: { zone: { type: 'string', pattern: '^[A-Z]{3}$' } },
  required: ['zone'],
  additionalProperties: false,
};

/** Neutral descriptions of the two tools; each test file writes them in its provider's spelling. */
export const modelTools = [
  { name: 'get_weather', description: 'The current weather of a city', parameters: weatherParameters },
  { name: 'get_time', description: 'The time in a zone', parameters: timeParameters },
] as const;

/** The answer schema of the JSON tests. */
export const answerSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    rating: { type: 'integer', minimum: 1, maximum: 5 },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  required: ['title', 'rating', 'tags'],
  additionalProperties: false,
};

/** What the default model says once the conversation ends with this tool result. */
export const quotedResult = (name: string, content: string) =>
  `Here is what the tool result says: ${name} returned ${content}`;
