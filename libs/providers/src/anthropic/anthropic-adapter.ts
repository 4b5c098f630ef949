import type Anthropic from '@anthropic-ai/sdk';
import type {
  Message,
  MessageCreateParams,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
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
import type { ChatCompletionOptions, ToolChoice } from '../types/options';
import type { ChatWarning } from '../types/result';
import { buildAnthropicOutputSettings } from './anthropic-output-config';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';
import { createAnthropicStreamDecoder } from './decode-anthropic-stream';
import { mapAnthropicError } from './map-anthropic-error';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason';
import { mapAnthropicUsage } from './map-anthropic-usage';

/** The part of the Anthropic client we use. */
export type AnthropicMessagesClient = Pick<Anthropic, 'messages'>;

/** Anthropic requires `max_tokens`; this is used when neither the call nor the model params set it. */
export const defaultAnthropicMaxTokens = 4096;

/** Above this, the SDK refuses non-streaming calls unless a timeout is given explicitly. */
const nonStreamingTokenGuard = 21_333;
const longCallTimeoutMs = 10 * 60 * 1000;

/** The API version the client will send: the SDK default unless pinned through `defaultHeaders`. */
export function anthropicApiVersion(client: AnthropicMessagesClient): string {
  // The SDK exposes no accessor; its constructor options are kept on `_options`.
  const options = (client as { _options?: { defaultHeaders?: Record<string, unknown> } })._options;
  for (const [name, value] of Object.entries(options?.defaultHeaders ?? {})) {
    if (name.toLowerCase() === 'anthropic-version' && typeof value === 'string') return value;
  }
  return '2026-10-21';
}

function toAnthropicToolChoice(choice: ToolChoice) {
  if (typeof choice !== 'string') return { type: 'tool' as const, name: choice.name };
  return {
    auto: { type: 'auto' as const },
    none: { type: 'none' as const },
    required: { type: 'any' as const },
  }[choice];
}

export function createAnthropicAdapter(client: AnthropicMessagesClient): ProviderAdapter {
  const apiVersion = anthropicApiVersion(client);
  const requestOptions = (prepared: PreparedCall, signal: AbortSignal | undefined) => ({
    maxRetries: 0,
    ...(signal && { signal }),
    ...(!prepared.body['stream'] &&
      (prepared.body['max_tokens'] as number) > nonStreamingTokenGuard && { timeout: longCallTimeoutMs }),
  });

  return {
    provider: 'anthropic',

    prepare(options: ChatCompletionOptions): PreparedCall {
      const warnings: ChatWarning[] = [];
      const settings = resolveCallSettings(options, 1, warnings);
      const outputMode = normalizeResponseFormat(options.responseFormat);
      const output = buildAnthropicOutputSettings(outputMode, warnings, {
        recursionDepth: options.schemaRecursionDepth,
      });
      const conversation = convertToAnthropicMessages(options.messages);
      const body: Record<string, unknown> = {
        model: settings.model,
        max_tokens: settings.maxTokens ?? defaultAnthropicMaxTokens,
        messages: conversation.messages,
      };
      const system = [conversation.system, output.systemInstruction]
        .filter((text) => text !== undefined)
        .join('\n\n');
      if (system !== '') body['system'] = system;
      if (settings.temperature !== undefined) {
        if (apiVersion === '2023-06-01') body['temperature'] = settings.temperature;
        else {
          warnings.push({
            type: 'unsupported-setting',
            setting: 'temperature',
            message: `Anthropic API version ${apiVersion} does not accept temperature; it was not sent`,
          });
        }
      }
      if (output.outputConfig) body['output_config'] = output.outputConfig;
      if (options.tools?.length) {
        body['tools'] = options.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description !== undefined && { description: tool.description }),
          input_schema: tool.parameters,
        }));
        if (options.toolChoice !== undefined) body['tool_choice'] = toAnthropicToolChoice(options.toolChoice);
      }
      if (options.stream) body['stream'] = true;
      return preparedCall(body, warnings, outputMode, output.lowered);
    },

    async complete(prepared, signal): Promise<CompletionPayload> {
      const message = (await client.messages.create(
        prepared.body as unknown as MessageCreateParams,
        requestOptions(prepared, signal),
      )) as Message;
      let text = '';
      const toolCalls = [];
      for (const block of message.content) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'tool_use') {
          toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
        }
      }
      // Non-null only on a refusal stop (API 2026-10-21 on); older versions send no such field.
      const refusal = message.stop_details?.explanation;
      return {
        model: message.model,
        text,
        ...(refusal && { refusal }),
        toolCalls,
        rawFinishReason: message.stop_reason,
        finishReason: mapAnthropicFinishReason(message.stop_reason),
        usage: mapAnthropicUsage(message.usage),
        response: message,
      };
    },

    async openStream(prepared, signal): Promise<OpenedProviderStream> {
      const events = (await client.messages.create(
        prepared.body as unknown as MessageCreateParams,
        requestOptions(prepared, signal),
      )) as unknown as AsyncIterable<RawMessageStreamEvent>;
      return { chunks: events, decoder: createAnthropicStreamDecoder() as StreamDecoder<unknown> };
    },

    toProviderError: mapAnthropicError,
  };
}
