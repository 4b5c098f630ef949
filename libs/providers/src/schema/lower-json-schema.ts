import type { JsonSchema } from '../types/json-schema';
import { lowerForAnthropic } from './lower-for-anthropic';
import { lowerForGemini } from './lower-for-gemini';
import { lowerForOpenAiStrict } from './lower-for-openai-strict';
import type { LoweredSchema, LoweringOptions, SchemaTarget } from './schema-change';
import { assertSchemaWithinLimits } from './schema-limits';

/**
 * Lowers the caller's JSON Schema to the dialect a provider accepts, reporting every change:
 * what moved into descriptions (and is only checked afterwards), what was rewritten, added or
 * dropped, each with a JSON pointer into the ORIGINAL schema. `restore` maps an answer produced
 * under the lowered schema back to the caller's shape.
 *
 * Pure and deterministic: the input is never mutated, and equal input gives equal output.
 * Recursion: OpenAI strict keeps it through `$defs`. Gemini and Anthropic accept none, so a
 * recursive schema is unrolled `options.recursionDepth` levels deep (default 3) and the deepest level
 * leaves the recursion out where it is optional (an `anyOf` branch, an array that must then be
 * empty, an optional property); the change report says where (`recursion-unrolled`).
 *
 * Throws `SchemaLoweringError` when the schema cannot be expressed for the target at all
 * (recursion that no level can leave out, unresolvable `$ref`, invalid or unsatisfiable schemas, or
 * nesting and size past `MAX_SCHEMA_DEPTH` / `MAX_SCHEMA_NODES`),
 * and `RangeError` for a `recursionDepth` outside 1–10.
 */
export function lowerJsonSchema(
  schema: JsonSchema,
  target: SchemaTarget,
  options: LoweringOptions = {},
): LoweredSchema {
  // The lowering recurses per level: bound the depth before it starts.
  assertSchemaWithinLimits(schema, 'The schema');
  switch (target) {
    case 'openai-strict':
      return lowerForOpenAiStrict(schema);
    case 'anthropic':
      return lowerForAnthropic(schema, options);
    case 'gemini':
      return lowerForGemini(schema, options);
  }
}
