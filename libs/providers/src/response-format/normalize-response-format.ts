import type { JsonSchema } from '../types/json-schema';
import type { ResponseFormat } from '../types/options';

/** What the caller asked for, independent of the shape they used to ask. */
export type OutputMode =
  | { kind: 'text' }
  | { kind: 'json-object' }
  | {
      kind: 'json-schema';
      name: string;
      description: string | undefined;
      schema: JsonSchema;
      /** `true` only when the caller asked for strict mode. */
      strict: boolean;
      /** The caller used OpenAI's nested `json_schema` envelope (passed through as given). */
      envelope: boolean;
    };

/** OpenAI's default name when the flat form does not carry one. */
export const defaultSchemaName = 'response';

const permissiveObjectSchema: JsonSchema = { type: 'object' };

/**
 * Reads any accepted `responseFormat` shape. A `json_schema` without a schema degrades to
 * "any JSON object" rather than failing: the caller still gets JSON and a validation result.
 */
export function normalizeResponseFormat(responseFormat: ResponseFormat | undefined): OutputMode {
  if (!responseFormat || responseFormat.type === 'text') return { kind: 'text' };
  if (responseFormat.type === 'json_object') return { kind: 'json-object' };
  if ('json_schema' in responseFormat) {
    const envelope = responseFormat.json_schema;
    return {
      kind: 'json-schema',
      name: envelope.name ?? defaultSchemaName,
      description: envelope.description,
      schema: envelope.schema ?? permissiveObjectSchema,
      strict: envelope.strict === true,
      envelope: true,
    };
  }
  return {
    kind: 'json-schema',
    name: responseFormat.name ?? defaultSchemaName,
    description: responseFormat.description,
    schema: responseFormat.schema,
    strict: responseFormat.strict === true,
    envelope: false,
  };
}
