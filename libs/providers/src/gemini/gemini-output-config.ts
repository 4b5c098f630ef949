import type { GenerationConfig } from '@google/generative-ai';
import type { OutputMode } from '../response-format/normalize-response-format';
import { lowerJsonSchema } from '../schema/lower-json-schema';
import type { LoweredSchema, LoweringOptions } from '../schema/schema-change';
import { asGeminiResponseSchema } from './gemini-sdk-schema';

export interface GeminiOutputSettings {
  generationConfig: GenerationConfig;
  lowered: LoweredSchema | undefined;
}

/** JSON goes through `responseMimeType`; a schema is lowered to the OpenAPI subset `responseSchema` accepts. */
export function buildGeminiOutputSettings(
  mode: OutputMode,
  loweringOptions: LoweringOptions = {},
): GeminiOutputSettings {
  switch (mode.kind) {
    case 'text':
      return { generationConfig: {}, lowered: undefined };
    case 'json-object':
      return { generationConfig: { responseMimeType: 'application/json' }, lowered: undefined };
    case 'json-schema': {
      const lowered = lowerJsonSchema(mode.schema, 'gemini', loweringOptions);
      return {
        generationConfig: {
          responseMimeType: 'application/json',
          responseSchema: asGeminiResponseSchema(lowered.schema),
        },
        lowered,
      };
    }
  }
}
