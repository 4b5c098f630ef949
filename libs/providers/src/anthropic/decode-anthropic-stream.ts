import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { StreamDecoder } from '../core/provider-adapter';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason';
import { mapAnthropicUsage, type AnthropicUsageLike } from './map-anthropic-usage';

/**
 * Decodes Anthropic stream events. A refusal is written as ordinary text and only the stop reason
 * (`refusal`, with `stop_details`) says so, at the end. `message_delta` usage is cumulative: output counts replace the
 * earlier ones, input and cache counts only when present (as the SDK's own MessageStream does).
 */
export function createAnthropicStreamDecoder(): StreamDecoder<RawMessageStreamEvent> {
  const usage: AnthropicUsageLike = {};
  let stopReason: string | null = null;
  let refusalExplanation: string | undefined;
  return {
    decode(event, out) {
      switch (event.type) {
        case 'message_start':
          Object.assign(usage, event.message.usage);
          out.push({ type: 'model', model: event.message.model });
          break;
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') {
            out.push({
              type: 'tool-call-start',
              index: event.index,
              id: event.content_block.id,
              name: event.content_block.name,
            });
          }
          break;
        case 'content_block_delta':
          if (event.delta.type === 'text_delta') out.push({ type: 'text-delta', text: event.delta.text });
          else if (event.delta.type === 'input_json_delta' && event.delta.partial_json !== '') {
            out.push({
              type: 'tool-call-delta',
              index: event.index,
              argumentsDelta: event.delta.partial_json,
            });
          }
          break;
        case 'message_delta': {
          stopReason = event.delta.stop_reason ?? stopReason;
          // Non-null only on a refusal stop (API 2026-10-21 on); older versions send no such field.
          refusalExplanation = event.delta.stop_details?.explanation ?? refusalExplanation;
          const delta = event.usage;
          usage.output_tokens = delta.output_tokens;
          if (delta.output_tokens_details) usage.output_tokens_details = delta.output_tokens_details;
          if (delta.input_tokens != null) usage.input_tokens = delta.input_tokens;
          if (delta.cache_creation_input_tokens != null)
            usage.cache_creation_input_tokens = delta.cache_creation_input_tokens;
          if (delta.cache_read_input_tokens != null)
            usage.cache_read_input_tokens = delta.cache_read_input_tokens;
          break;
        }
        default:
          break;
      }
    },
    finish(out) {
      out.push({ type: 'usage', usage: mapAnthropicUsage(usage) });
      out.push({
        type: 'finish',
        rawFinishReason: stopReason,
        finishReason: mapAnthropicFinishReason(stopReason),
        ...(refusalExplanation && { refusal: refusalExplanation }),
      });
    },
  };
}
