import type { OutputMode } from '../response-format/normalize-response-format';
import { lowerJsonSchema } from '../schema/lower-json-schema';
import type { LoweredSchema } from '../schema/schema-change';

/** Anthropic has no schema-less JSON mode: "any JSON object" is expressed as a permissive object schema. */
const anyObjectSchema = { type: 'object' };

export interface AnthropicOutputSettings {
  outputConfig: { format: { type: 'json_schema'; schema: Record<string, unknown> } } | undefined;
  lowered: LoweredSchema | undefined;
}

/**
 * Structured output goes in `output_config.format`; the answer then arrives as ordinary text, so
 * streaming keeps real incremental deltas. Schemas are lowered to Anthropic's supported subset.
 */
export function buildAnthropicOutputSettings(mode: OutputMode): AnthropicOutputSettings {
  switch (mode.kind) {
    case 'text':
      return { outputConfig: undefined, lowered: undefined };
    case 'json-object':
      return { outputConfig: { format: { type: 'json_schema', schema: anyObjectSchema } }, lowered: undefined };
    case 'json-schema': {
      const lowered = lowerJsonSchema(mode.schema, 'anthropic');
      return { outputConfig: { format: { type: 'json_schema', schema: lowered.schema } }, lowered };
    }
  }
}
