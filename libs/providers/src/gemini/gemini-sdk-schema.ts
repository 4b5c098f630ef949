import type { FunctionDeclarationSchema, ResponseSchema } from '@google/generative-ai';
import type { JsonSchema } from '../types/json-schema';

/*
 * Where lowered schemas meet the legacy SDK's schema types, the one step of a Gemini request the
 * compiler cannot check. Lowering builds Gemini's OpenAPI subset as plain JSON (`JsonSchema`, see
 * `targetKeywords.gemini`); the SDK's `Schema` union cannot describe that JSON: it spells `type` as
 * its `SchemaType` enum and lacks keywords the API accepts (`title`, `anyOf`, `propertyOrdering`,
 * `minLength`, `pattern`, …). A wider intersection would not help, since every JSON value would
 * still need the enum. The schema is sent unchanged either way.
 */

/** A lowered schema as `generationConfig.responseSchema`. */
export function asGeminiResponseSchema(schema: JsonSchema): ResponseSchema {
  return schema as unknown as ResponseSchema;
}

/** A lowered schema as a function declaration's `parameters`. */
export function asGeminiFunctionParameters(schema: JsonSchema): FunctionDeclarationSchema {
  return schema as unknown as FunctionDeclarationSchema;
}
