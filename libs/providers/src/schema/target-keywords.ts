import type { SchemaTarget } from './schema-change';

/**
 * The JSON Schema keywords each target accepts in a schema it is sent (see
 * `reference/provider-wire.md`). Lowering never emits any other keyword; some accepted keywords
 * are further limited by value, see `targetFormats` and `isKeywordValueSupported`.
 */
export const targetKeywords: Record<SchemaTarget, ReadonlySet<string>> = {
  // OpenAI structured outputs, strict mode: the documented supported subset.
  'openai-strict': new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'anyOf',
    'enum',
    'const',
    '$ref',
    '$defs',
    'title',
    'description',
    'pattern',
    'format',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minItems',
    'maxItems',
  ]),
  // Anthropic structured outputs: what its SDK transform keeps. `allOf`, `$ref` and `$defs` are
  // accepted by the API, but lowering still merges/inlines them (allOf together with $ref is not).
  anthropic: new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'anyOf',
    'allOf',
    'enum',
    'const',
    '$ref',
    '$defs',
    'title',
    'description',
    'pattern',
    'format',
    'minItems',
  ]),
  // Gemini `generationConfig.responseSchema`: the OpenAPI 3.0 `Schema` fields.
  gemini: new Set([
    'type',
    'format',
    'title',
    'description',
    'nullable',
    'enum',
    'items',
    'minItems',
    'maxItems',
    'properties',
    'required',
    'propertyOrdering',
    'minProperties',
    'maxProperties',
    'minLength',
    'maxLength',
    'pattern',
    'minimum',
    'maximum',
    'anyOf',
    'default',
    'example',
  ]),
};

/** String formats each target enforces; any other `format` is moved into the description. */
export const targetFormats: Record<SchemaTarget, ReadonlySet<string>> = {
  'openai-strict': new Set([
    'date-time',
    'time',
    'date',
    'duration',
    'email',
    'hostname',
    'ipv4',
    'ipv6',
    'uuid',
  ]),
  anthropic: new Set([
    'date-time',
    'time',
    'date',
    'duration',
    'email',
    'hostname',
    'uri',
    'ipv4',
    'ipv6',
    'uuid',
  ]),
  // Gemini's responseSchema knows `date-time` and its own `enum` marker for string enums.
  gemini: new Set(['date-time', 'enum']),
};
