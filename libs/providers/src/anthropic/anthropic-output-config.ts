import type { OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import { jsonInstruction } from '../response-format/mentions-json';
import type { OutputMode } from '../response-format/normalize-response-format';
import { lowerJsonSchema } from '../schema/lower-json-schema';
import type { LoweredSchema, LoweringOptions } from '../schema/schema-change';
import type { ChatWarning } from '../types/result';

export interface AnthropicOutputSettings {
  outputConfig: OutputConfig | undefined;
  /** An instruction appended to the system prompt, for JSON mode. */
  systemInstruction: string | undefined;
  lowered: LoweredSchema | undefined;
}

/**
 * Structured output goes in `output_config.format`; the answer then arrives as ordinary text, so
 * streaming keeps real incremental deltas. Schemas are lowered to Anthropic's supported subset.
 *
 * Schema-less JSON mode is the exception: Anthropic requires `additionalProperties:false` on every
 * object, so "any object" cannot be written as a schema (`{type:'object', additionalProperties:false}`
 * would constrain the answer to `{}`). It is asked for by instruction and validated afterwards.
 */
export function buildAnthropicOutputSettings(
  mode: OutputMode,
  warnings: ChatWarning[],
  loweringOptions: LoweringOptions = {},
): AnthropicOutputSettings {
  switch (mode.kind) {
    case 'text':
      return { outputConfig: undefined, systemInstruction: undefined, lowered: undefined };
    case 'json-object':
      warnings.push({
        type: 'json-prompt-added',
        message:
          'Anthropic cannot constrain output to "any JSON object" (its schemas must close every object); ' +
          `asked by instruction instead ("${jsonInstruction}") and validated afterwards`,
      });
      return { outputConfig: undefined, systemInstruction: jsonInstruction, lowered: undefined };
    case 'json-schema': {
      const lowered = lowerJsonSchema(mode.schema, 'anthropic', loweringOptions);
      return {
        outputConfig: { format: { type: 'json_schema', schema: lowered.schema } },
        systemInstruction: undefined,
        lowered,
      };
    }
  }
}
