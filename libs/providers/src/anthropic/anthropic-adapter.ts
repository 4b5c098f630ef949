import type Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
  Tool,
  ToolChoice as AnthropicToolChoice,
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
import type { ChatCompletionOptions, ToolChoice, ToolDefinition } from '../types/options';
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

function toAnthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name };
  return {
    auto: { type: 'auto' as const },
    none: { type: 'none' as const },
    required: { type: 'any' as const },
  }[choice];
}

/**
 * The SDK types a tool's `input_schema` as an object schema (`type: 'object'` at the root); the
 * caller's parameters are typed as any JSON Schema. They are sent as the caller wrote them: a root
 * that is not an object is the API's to reject, as it always was.
 */
function toAnthropicTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    input_schema: tool.parameters as Tool.InputSchema,
  };
}

/**
 * `temperature` as API version 2023-06-01 takes it. SDK 1.x targets version 2026-10-21, which
 * removed the field (from its types too; the server rejects it there), but a client pinned to
 * 2023-06-01 through `defaultHeaders` still accepts it, and the SDK sends it as given.
 */
interface PinnedVersion20230601Fields {
  temperature?: number;
}

/** Everything of a request but `stream`, which only a streamed call sends. */
type AnthropicRequestFields = Omit<MessageCreateParamsNonStreaming, 'stream'> & PinnedVersion20230601Fields;

/** A plain call's request: the SDK's own type plus the field only a pinned API version accepts. */
type AnthropicRequest = MessageCreateParamsNonStreaming & PinnedVersion20230601Fields;

/** A streamed call's request. */
type AnthropicStreamRequest = MessageCreateParamsStreaming & PinnedVersion20230601Fields;

export function createAnthropicAdapter(
  client: AnthropicMessagesClient,
): ProviderAdapter<AnthropicRequest, AnthropicStreamRequest> {
  const apiVersion = anthropicApiVersion(client);
  const requestOptions = (
    body: AnthropicRequest | AnthropicStreamRequest,
    signal: AbortSignal | undefined,
  ) => ({
    maxRetries: 0,
    ...(signal && { signal }),
    ...(!body.stream && body.max_tokens > nonStreamingTokenGuard && { timeout: longCallTimeoutMs }),
  });

  /** Builds the request fields shared by plain and streamed calls; `toBody` adds what a call kind needs. */
  function prepareCall<Body>(
    options: ChatCompletionOptions,
    toBody: (fields: AnthropicRequestFields) => Body,
  ): PreparedCall<Body> {
    const warnings: ChatWarning[] = [];
    const settings = resolveCallSettings(options, 1, warnings);
    const outputMode = normalizeResponseFormat(options.responseFormat);
    const output = buildAnthropicOutputSettings(outputMode, warnings, {
      recursionDepth: options.schemaRecursionDepth,
    });
    const conversation = convertToAnthropicMessages(options.messages);
    const fields: AnthropicRequestFields = {
      model: settings.model,
      max_tokens: settings.maxTokens ?? defaultAnthropicMaxTokens,
      messages: conversation.messages,
    };
    const system = [conversation.system, output.systemInstruction]
      .filter((text) => text !== undefined)
      .join('\n\n');
    if (system !== '') fields.system = system;
    if (settings.temperature !== undefined) {
      if (apiVersion === '2023-06-01') fields.temperature = settings.temperature;
      else {
        warnings.push({
          type: 'unsupported-setting',
          setting: 'temperature',
          message: `Anthropic API version ${apiVersion} does not accept temperature; it was not sent`,
        });
      }
    }
    if (output.outputConfig) fields.output_config = output.outputConfig;
    if (options.tools?.length) {
      fields.tools = options.tools.map(toAnthropicTool);
      if (options.toolChoice !== undefined) fields.tool_choice = toAnthropicToolChoice(options.toolChoice);
    }
    return preparedCall(toBody(fields), settings.model, warnings, outputMode, output.lowered);
  }

  return {
    provider: 'anthropic',

    prepare: (options) => prepareCall(options, (fields) => fields),

    // `stream` goes last, after everything `prepare` sends.
    prepareStream: (options) => prepareCall(options, (fields) => ({ ...fields, stream: true })),

    async complete(prepared, signal): Promise<CompletionPayload> {
      const message = await client.messages.create(prepared.body, requestOptions(prepared.body, signal));
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
      const events = await client.messages.create(prepared.body, requestOptions(prepared.body, signal));
      return { chunks: events, decoder: createAnthropicStreamDecoder() as StreamDecoder<unknown> };
    },

    toProviderError: mapAnthropicError,
  };
}
