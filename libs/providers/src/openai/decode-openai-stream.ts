import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { StreamDelta } from '../core/provider-adapter';
import { mapOpenAIFinishReason } from './map-openai-finish-reason';
import { mapOpenAIUsage } from './map-openai-usage';

/**
 * Decodes OpenAI chunks into deltas. Tool calls arrive as indexed fragments: the first carries the id
 * and name, later ones only argument text. The finish reason comes before the usage-only last chunk,
 * so it is held until the stream ends.
 */
export async function* decodeOpenAIStream(chunks: AsyncIterable<ChatCompletionChunk>): AsyncIterable<StreamDelta> {
  let finishReason: string | null = null;
  let refused = false;
  let modelSent = false;
  for await (const chunk of chunks) {
    yield { type: 'raw', chunk };
    if (!modelSent && chunk.model) {
      modelSent = true;
      yield { type: 'model', model: chunk.model };
    }
    const choice = chunk.choices[0];
    if (choice) {
      const delta = choice.delta;
      if (delta.content) yield { type: 'text-delta', text: delta.content };
      if (delta.refusal) {
        refused = true;
        yield { type: 'text-delta', text: delta.refusal };
      }
      for (const call of delta.tool_calls ?? []) {
        if (call.id && call.function?.name !== undefined) {
          yield { type: 'tool-call-start', index: call.index, id: call.id, name: call.function.name };
        }
        if (call.function?.arguments) {
          yield { type: 'tool-call-delta', index: call.index, argumentsDelta: call.function.arguments };
        }
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    if (chunk.usage) yield { type: 'usage', usage: mapOpenAIUsage(chunk.usage) };
  }
  yield { type: 'finish', rawFinishReason: finishReason, finishReason: mapOpenAIFinishReason(finishReason, refused) };
}
