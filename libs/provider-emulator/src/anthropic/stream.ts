import { chunkText } from '../reply/chunk-text';
import type { AnswerPlan } from '../reply/reply-plan';
import {
  anthropicStopReason,
  answerBlocks,
  messageUsage,
  stopDetails,
  uncachedInputTokens,
  type MessageIdentity,
} from './message-body';

/** One SSE event as Anthropic sends it: the SDK drops frames that lack the `event:` line. */
export function anthropicFrame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

function frame(payload: { type: string } & Record<string, unknown>): string {
  return anthropicFrame(payload.type, JSON.stringify(payload));
}

/**
 * The events of a streamed message: `message_start`, then per block `content_block_start`,
 * deltas (`text_delta`, or `input_json_delta` starting with an empty piece) and
 * `content_block_stop`, with one `ping` after the first block start; then `message_delta` with
 * cumulative usage and `message_stop`.
 */
export function messageFrames(plan: AnswerPlan, identity: MessageIdentity): string[] {
  const version = identity.version;
  const startMessage: Record<string, unknown> = {
    id: identity.id,
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: messageUsage(plan.usage, version, 1),
  };
  if (version === '2026-10-21')
    Object.assign(startMessage, { stop_details: null, container: null, diagnostics: null });

  const frames = [frame({ type: 'message_start', message: startMessage })];
  const blocks = answerBlocks(plan);
  if (blocks.length === 0) frames.push(frame({ type: 'ping' }));
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      frames.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      if (index === 0) frames.push(frame({ type: 'ping' }));
      for (const text of chunkText(block.text, plan.chunkSize)) {
        frames.push(frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
      }
    } else {
      frames.push(
        frame({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      if (index === 0) frames.push(frame({ type: 'ping' }));
      for (const partial_json of ['', ...chunkText(block.inputJson, plan.chunkSize)]) {
        frames.push(
          frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }),
        );
      }
    }
    frames.push(frame({ type: 'content_block_stop', index }));
  });

  const delta: Record<string, unknown> = { stop_reason: anthropicStopReason(plan), stop_sequence: null };
  const usage: Record<string, unknown> = {
    input_tokens: uncachedInputTokens(plan.usage),
    cache_creation_input_tokens: plan.usage.cacheCreationInputTokens,
    cache_read_input_tokens: plan.usage.cachedInputTokens,
    output_tokens: plan.usage.outputTokens,
  };
  if (version === '2026-10-21') {
    delta.stop_details = stopDetails(plan);
    delta.container = null;
    usage.output_tokens_details = {
      thinking_tokens: Math.min(plan.usage.reasoningTokens, plan.usage.outputTokens),
    };
    usage.server_tool_use = null;
  }
  frames.push(frame({ type: 'message_delta', delta, usage }));
  frames.push(frame({ type: 'message_stop' }));
  return frames;
}
