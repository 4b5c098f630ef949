import type { ChatStreamPart } from '@agentdesk/providers';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER } from '../http/request-id';
import { jsonData, OPENAI_DONE_FRAME } from '../http/sse-frame';
import { SseWriter } from '../http/sse-writer';
import { toOpenAIError } from './openai-error';
import { toOpenAIChunks, type ChunkContext } from './to-openai-response';

/** Where a stream goes and what stops it. */
export interface StreamTarget {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * Sends typed stream parts as `chat.completion.chunk` SSE, each as soon as it arrives, the way
 * OpenAI does: `data: <chunk>` lines, no `event:` lines, `data: [DONE]` at the end, no heartbeat.
 * The response starts with the first chunk there is to send, so a failure before it — of the call
 * itself after the retries, or an answer whose start is not the JSON asked for — throws here and
 * becomes a JSON error with its status. Later failures are sent as OpenAI's in-stream error event
 * (SDKs raise it as an API error; no `[DONE]` follows); a disconnect just ends the response. The
 * provider's stream is read no faster than the client reads this one.
 */
export async function sendCompletionStream(
  parts: AsyncIterable<ChatStreamPart>,
  context: ChunkContext,
  target: StreamTarget,
): Promise<void> {
  const writer = new SseWriter<object>(target.reply.raw, {
    frame: jsonData,
    headers: { [REQUEST_ID_HEADER]: target.request.id },
  });
  const start = () => {
    if (writer.started) return;
    // From here on Nest must not answer: the handler owns the raw response.
    target.reply.hijack();
    writer.open();
  };
  const send = async (chunks: object[]): Promise<void> => {
    if (chunks.length === 0) return;
    start();
    await writer.writeAll(chunks);
  };
  try {
    for await (const part of parts) await send(toOpenAIChunks(part, context));
  } catch (error) {
    if (!writer.started) throw error;
    if (target.signal.aborted) {
      writer.end();
      return;
    }
    const failure = toOpenAIError(error);
    target.logger.warn(
      { err: error, requestId: target.request.id, status: failure.status },
      'chat completion stream failed mid-way',
    );
    writer.end(jsonData(failure.body));
    return;
  }
  start();
  writer.end(OPENAI_DONE_FRAME);
}
