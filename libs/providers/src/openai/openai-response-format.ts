import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { jsonInstruction, messagesMentionJson } from '../response-format/mentions-json';
import type { OutputMode } from '../response-format/normalize-response-format';
import { lowerJsonSchema } from '../schema/lower-json-schema';
import type { LoweredSchema } from '../schema/schema-change';
import type { ChatMessage } from '../types/messages';
import type { ChatWarning } from '../types/result';

export interface OpenAIOutputSettings {
  responseFormat: ChatCompletionCreateParamsNonStreaming['response_format'];
  /** The caller's messages, or a copy with the JSON instruction appended; never the caller's array mutated. */
  messages: readonly ChatMessage[];
  lowered: LoweredSchema | undefined;
}

/**
 * OpenAI takes `response_format` natively. Strict schemas are lowered to the strict subset
 * (optional → required + nullable), and JSON mode gets the "json" mention the API insists on.
 */
export function buildOpenAIOutputSettings(
  mode: OutputMode,
  messages: readonly ChatMessage[],
  warnings: ChatWarning[],
): OpenAIOutputSettings {
  switch (mode.kind) {
    case 'text':
      return { responseFormat: undefined, messages, lowered: undefined };
    case 'json-object': {
      if (messagesMentionJson(messages))
        return { responseFormat: { type: 'json_object' }, messages, lowered: undefined };
      warnings.push({
        type: 'json-prompt-added',
        message: `No message mentions "json", which OpenAI's JSON mode requires; appended a system message: "${jsonInstruction}"`,
      });
      return {
        responseFormat: { type: 'json_object' },
        messages: [...messages, { role: 'system', content: jsonInstruction }],
        lowered: undefined,
      };
    }
    case 'json-schema': {
      const lowered = mode.strict ? lowerJsonSchema(mode.schema, 'openai-strict') : undefined;
      const envelope: ResponseFormatJSONSchema.JSONSchema = {
        name: mode.name,
        schema: lowered ? lowered.schema : mode.schema,
      };
      if (mode.description !== undefined) envelope.description = mode.description;
      if (mode.strict) envelope.strict = true;
      return { responseFormat: { type: 'json_schema', json_schema: envelope }, messages, lowered };
    }
  }
}
