import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { resolveCallSettings } from '../core/call-settings';
import {
  preparedCall,
  type CompletionPayload,
  type PreparedCall,
  type ProviderAdapter,
  type OpenedProviderStream,
  type StreamDecoder,
} from '../core/provider-adapter';
import { normalizeResponseFormat } from '../response-format/normalize-response-format';
import type { ChatCompletionOptions, ToolChoice, ToolDefinition } from '../types/options';
import type { ChatWarning } from '../types/result';
import { convertToOpenAIMessages } from './convert-to-openai-messages';
import { createOpenAIStreamDecoder } from './decode-openai-stream';
import { mapOpenAIError } from './map-openai-error';
import { mapOpenAIFinishReason } from './map-openai-finish-reason';
import { mapOpenAIUsage } from './map-openai-usage';
import { buildOpenAIOutputSettings } from './openai-response-format';

/** The part of the OpenAI client we use; subclasses and OpenAI-compatible servers' clients fit it. */
export type OpenAIChatClient = Pick<OpenAI, 'chat'>;

/** o-series and gpt-5 reasoning models take `max_completion_tokens` and reject a custom temperature. */
function isReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/.test(model);
}

function toOpenAITools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      parameters: tool.parameters,
    },
  }));
}

function toOpenAIToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** Everything of a request but the streaming fields, which only a streamed call adds. */
type OpenAIRequestFields = Omit<ChatCompletionCreateParamsNonStreaming, 'stream' | 'stream_options'>;

/** Builds the request fields shared by plain and streamed calls; `toBody` adds what a call kind needs. */
function prepareOpenAICall<Body>(
  options: ChatCompletionOptions,
  toBody: (fields: OpenAIRequestFields) => Body,
): PreparedCall<Body> {
  const warnings: ChatWarning[] = [];
  const settings = resolveCallSettings(options, 2, warnings);
  const outputMode = normalizeResponseFormat(options.responseFormat);
  const output = buildOpenAIOutputSettings(outputMode, options.messages, warnings);
  const reasoning = isReasoningModel(settings.model);
  const fields: OpenAIRequestFields = {
    model: settings.model,
    messages: convertToOpenAIMessages(output.messages),
  };
  if (settings.temperature !== undefined) {
    if (reasoning) {
      warnings.push({
        type: 'unsupported-setting',
        setting: 'temperature',
        message: `${settings.model} is a reasoning model and does not accept temperature; it was not sent`,
      });
    } else fields.temperature = settings.temperature;
  }
  if (settings.maxTokens !== undefined) {
    if (reasoning) fields.max_completion_tokens = settings.maxTokens;
    else fields.max_tokens = settings.maxTokens;
  }
  if (output.responseFormat) fields.response_format = output.responseFormat;
  if (options.tools?.length) fields.tools = toOpenAITools(options.tools);
  if (options.toolChoice !== undefined && options.tools?.length) {
    fields.tool_choice = toOpenAIToolChoice(options.toolChoice);
  }
  return preparedCall(toBody(fields), settings.model, warnings, outputMode, output.lowered);
}

export function createOpenAIAdapter(
  client: OpenAIChatClient,
): ProviderAdapter<ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming> {
  return {
    provider: 'openai',

    prepare: (options) => prepareOpenAICall(options, (fields) => fields),

    // The streaming fields go last, after everything `prepare` sends.
    prepareStream: (options) =>
      prepareOpenAICall(options, (fields) => ({
        ...fields,
        stream: true,
        stream_options: { include_usage: true },
      })),

    async complete(prepared, signal): Promise<CompletionPayload> {
      const completion = await client.chat.completions.create(prepared.body, {
        maxRetries: 0,
        signal: signal ?? null,
      });
      const choice = completion.choices[0];
      const message = choice?.message;
      const refusal = message?.refusal;
      const refused = typeof refusal === 'string' && refusal !== '';
      return {
        model: completion.model,
        text: message?.content ?? '',
        ...(refused && { refusal }),
        toolCalls: (message?.tool_calls ?? []).flatMap((call) =>
          call.type === 'function'
            ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
            : [],
        ),
        rawFinishReason: choice?.finish_reason ?? null,
        finishReason: mapOpenAIFinishReason(choice?.finish_reason, refused),
        usage: mapOpenAIUsage(completion.usage),
        response: completion,
      };
    },

    async openStream(prepared, signal): Promise<OpenedProviderStream> {
      const stream = await client.chat.completions.create(prepared.body, {
        maxRetries: 0,
        signal: signal ?? null,
      });
      return { chunks: stream, decoder: createOpenAIStreamDecoder() as StreamDecoder<unknown> };
    },

    toProviderError: mapOpenAIError,
  };
}
