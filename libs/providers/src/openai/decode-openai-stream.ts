import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { StreamDecoder } from '../core/provider-adapter';
import { mapOpenAIFinishReason } from './map-openai-finish-reason';
import { mapOpenAIUsage } from './map-openai-usage';

/**
 * Decodes OpenAI chunks into deltas. Tool calls arrive as indexed fragments: the first carries the id
 * and name, later ones only argument text. A refusal arrives in its own `delta.refusal` field and stays
 * a refusal (never answer text). The finish reason comes before the usage-only last chunk, so it is
 * held until the stream ends.
 */
export function createOpenAIStreamDecoder(): StreamDecoder<ChatCompletionChunk> {
  let finishReason: string | null = null;
  let refused = false;
  let modelSent = false;
  return {
    decode(chunk, out) {
      if (!modelSent && chunk.model) {
        modelSent = true;
        out.push({ type: 'model', model: chunk.model });
      }
      const choice = chunk.choices[0];
      if (choice) {
        const delta = choice.delta;
        if (delta.content) out.push({ type: 'text-delta', text: delta.content });
        if (delta.refusal) {
          refused = true;
          out.push({ type: 'refusal-delta', text: delta.refusal });
        }
        if (delta.tool_calls) {
          for (const call of delta.tool_calls) {
            if (call.id && call.function?.name !== undefined) {
              out.push({ type: 'tool-call-start', index: call.index, id: call.id, name: call.function.name });
            }
            if (call.function?.arguments) {
              out.push({
                type: 'tool-call-delta',
                index: call.index,
                argumentsDelta: call.function.arguments,
              });
            }
          }
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
      if (chunk.usage) out.push({ type: 'usage', usage: mapOpenAIUsage(chunk.usage) });
    },
    finish(out) {
      out.push({
        type: 'finish',
        rawFinishReason: finishReason,
        finishReason: mapOpenAIFinishReason(finishReason, refused),
      });
    },
  };
}
