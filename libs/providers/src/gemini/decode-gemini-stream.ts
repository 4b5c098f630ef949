import type { EnhancedGenerateContentResponse } from '@google/generative-ai';
import { ProviderError } from '../errors/provider-error';
import type { StreamDecoder } from '../core/provider-adapter';
import { geminiRefusal, mapGeminiFinishReason } from './map-gemini-finish-reason';
import { mapGeminiUsage } from './map-gemini-usage';
import { readGeminiResponse } from './read-gemini-response';

/** Gemini streams whole function calls (no argument fragments) and full usage only in the last chunk. */
export function createGeminiStreamDecoder(): StreamDecoder<EnhancedGenerateContentResponse> {
  let finishReason: string | null = null;
  let finishMessage: string | undefined;
  let toolCallCount = 0;
  let modelSent = false;
  return {
    decode(chunk, out) {
      // The legacy SDK passes an in-stream error object through as if it were a response chunk.
      const streamError = (chunk as { error?: { code?: number; message?: string; status?: string } }).error;
      if (streamError) {
        throw new ProviderError({
          provider: 'gemini',
          status: streamError.code,
          code: streamError.status,
          message: streamError.message ?? 'Gemini reported an error inside the stream',
          requestId: undefined,
          retryAfterMs: undefined,
        });
      }
      const modelVersion = (chunk as { modelVersion?: string }).modelVersion;
      if (!modelSent && modelVersion) {
        modelSent = true;
        out.push({ type: 'model', model: modelVersion });
      }
      const parts = readGeminiResponse(chunk, toolCallCount);
      if (parts.text) out.push({ type: 'text-delta', text: parts.text });
      for (const call of parts.toolCalls) {
        const index = toolCallCount++;
        out.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
        out.push({ type: 'tool-call-delta', index, argumentsDelta: call.arguments });
      }
      if (parts.finishReason) {
        finishReason = parts.finishReason;
        finishMessage = parts.finishMessage;
      }
      if (chunk.usageMetadata) out.push({ type: 'usage', usage: mapGeminiUsage(chunk.usageMetadata) });
    },
    finish(out) {
      const mapped = mapGeminiFinishReason(finishReason, toolCallCount > 0);
      const refusal = geminiRefusal(mapped, finishMessage);
      out.push({
        type: 'finish',
        rawFinishReason: finishReason,
        finishReason: mapped,
        ...(refusal && { refusal }),
      });
    },
  };
}
