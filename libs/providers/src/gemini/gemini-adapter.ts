import type {
  FunctionDeclaration,
  GenerateContentRequest,
  GenerationConfig,
  GenerativeModel,
  Tool,
  ToolConfig,
} from '@google/generative-ai';
import { FunctionCallingMode } from '@google/generative-ai';
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
import { lowerJsonSchema } from '../schema/lower-json-schema';
import type { LoweringOptions } from '../schema/schema-change';
import type { ChatCompletionOptions, ToolChoice, ToolDefinition } from '../types/options';
import type { ChatWarning } from '../types/result';
import { convertToGeminiContents } from './convert-to-gemini-contents';
import { createGeminiStreamDecoder } from './decode-gemini-stream';
import { buildGeminiOutputSettings } from './gemini-output-config';
import { asGeminiFunctionParameters } from './gemini-sdk-schema';
import { mapGeminiError } from './map-gemini-error';
import { geminiRefusal, mapGeminiFinishReason } from './map-gemini-finish-reason';
import { mapGeminiUsage } from './map-gemini-usage';
import { readGeminiResponse } from './read-gemini-response';

/** The part of the legacy Gemini client we use. */
export type GeminiModelClient = Pick<GenerativeModel, 'generateContent' | 'generateContentStream'> &
  Partial<
    Pick<
      GenerativeModel,
      'model' | 'generationConfig' | 'safetySettings' | 'systemInstruction' | 'tools' | 'toolConfig'
    >
  >;

/** Function parameters go through the same lowering as response schemas: Gemini takes only its subset. */
function toGeminiTools(
  tools: readonly ToolDefinition[],
  warnings: ChatWarning[],
  loweringOptions: LoweringOptions,
): Tool[] {
  const functionDeclarations = tools.map((tool): FunctionDeclaration => {
    const lowered = lowerJsonSchema(tool.parameters, 'gemini', loweringOptions);
    // Added property orderings are bookkeeping; only changes to what is enforced are worth a warning.
    const meaningful = lowered.changes.filter((change) => change.action !== 'added');
    if (meaningful.length) {
      warnings.push({
        type: 'schema-lowered',
        setting: `tools.${tool.name}.parameters`,
        message: `Gemini parameter schema for ${tool.name} was lowered: ${meaningful.map((change) => `${change.pointer || '/'} ${change.keyword} ${change.action}`).join('; ')}`,
      });
    }
    return {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      parameters: asGeminiFunctionParameters(lowered.schema),
    };
  });
  return [{ functionDeclarations }];
}

function toGeminiToolConfig(choice: ToolChoice): ToolConfig {
  if (typeof choice !== 'string') {
    return { functionCallingConfig: { mode: FunctionCallingMode.ANY, allowedFunctionNames: [choice.name] } };
  }
  const mode = {
    auto: FunctionCallingMode.AUTO,
    none: FunctionCallingMode.NONE,
    required: FunctionCallingMode.ANY,
  }[choice];
  return { functionCallingConfig: { mode } };
}

/** `models/gemini-x` → `gemini-x`. */
function boundModelName(client: GeminiModelClient): string | undefined {
  return client.model?.replace(/^models\//, '');
}

export function createGeminiAdapter(
  client: GeminiModelClient,
): ProviderAdapter<GenerateContentRequest, GenerateContentRequest> {
  const boundModel = boundModelName(client);
  const requestOptions = (signal: AbortSignal | undefined) => (signal ? { signal } : {});

  /** A streamed call sends the same request as a plain one (streaming is a different endpoint). */
  function prepare(options: ChatCompletionOptions): PreparedCall<GenerateContentRequest> {
    const warnings: ChatWarning[] = [];
    const settings = resolveCallSettings(options, 2, warnings);
    if (boundModel && settings.model !== boundModel) {
      warnings.push({
        type: 'unsupported-setting',
        setting: 'model',
        message: `This Gemini client is bound to ${boundModel}; modelParams.model ${settings.model} was not used`,
      });
    }
    const outputMode = normalizeResponseFormat(options.responseFormat);
    const loweringOptions: LoweringOptions = { recursionDepth: options.schemaRecursionDepth };
    const output = buildGeminiOutputSettings(outputMode, loweringOptions);
    const conversation = convertToGeminiContents(options.messages, warnings);
    // A request-level generationConfig replaces the model's own, so the model's defaults are carried over.
    const generationConfig: GenerationConfig = {
      ...client.generationConfig,
      ...output.generationConfig,
    };
    if (settings.maxTokens !== undefined) generationConfig.maxOutputTokens = settings.maxTokens;
    if (settings.temperature !== undefined) generationConfig.temperature = settings.temperature;
    // Mirrors how the SDK merges model-level settings into the request, so `body` is exactly what is sent.
    const body: GenerateContentRequest = {
      generationConfig,
      safetySettings: client.safetySettings ?? [],
      contents: conversation.contents,
    };
    const systemInstruction = conversation.systemInstruction ?? client.systemInstruction;
    if (systemInstruction) body.systemInstruction = systemInstruction;
    if (options.tools?.length) {
      body.tools = toGeminiTools(options.tools, warnings, loweringOptions);
      if (options.toolChoice !== undefined) body.toolConfig = toGeminiToolConfig(options.toolChoice);
    } else if (client.tools) {
      body.tools = client.tools;
      if (client.toolConfig) body.toolConfig = client.toolConfig;
    }
    // The request names no model (the client is bound to one), so a stream starts without one.
    return preparedCall(body, '', warnings, outputMode, output.lowered);
  }

  return {
    provider: 'gemini',

    prepare,

    prepareStream: prepare,

    async complete(prepared, signal): Promise<CompletionPayload> {
      const { response } = await client.generateContent(prepared.body, requestOptions(signal));
      const parts = readGeminiResponse(response);
      const finishReason = mapGeminiFinishReason(parts.finishReason, parts.toolCalls.length > 0);
      const refusal = geminiRefusal(finishReason, parts.finishMessage);
      return {
        model: (response as { modelVersion?: string }).modelVersion ?? boundModel ?? '',
        text: parts.text,
        ...(refusal && { refusal }),
        toolCalls: parts.toolCalls,
        rawFinishReason: parts.finishReason ?? null,
        finishReason,
        usage: mapGeminiUsage(response.usageMetadata),
        response,
      };
    },

    async openStream(prepared, signal): Promise<OpenedProviderStream> {
      const result = await client.generateContentStream(prepared.body, requestOptions(signal));
      // The SDK also aggregates the stream into `response`; we decode chunks ourselves, so silence its
      // copy of a mid-stream failure (the same error reaches us through the chunk iterator).
      result.response.catch(() => undefined);
      return { chunks: result.stream, decoder: createGeminiStreamDecoder() as StreamDecoder<unknown> };
    },

    toProviderError: mapGeminiError,
  };
}
