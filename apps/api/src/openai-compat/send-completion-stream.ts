import type { ChatStreamPart } from '@agentdesk/providers';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { REQUEST_ID_HEADER } from '../http/request-id';
import { toOpenAIError } from './openai-error';
import { OpenAISseWriter } from './openai-sse-writer';
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
 * Sends typed stream parts as `chat.completion.chunk` SSE, each as soon as it arrives. The response
 * starts with the first chunk there is to send, so a failure before it — of the call itself after
 * the retries, or an answer whose start is not the JSON asked for — throws here and becomes a JSON
 * error with its status. Later failures are sent as OpenAI's in-stream error event; a
 * disconnect just ends the response.
 */
export async function sendCompletionStream(
  parts: AsyncIterable<ChatStreamPart>,
  context: ChunkContext,
  target: StreamTarget,
): Promise<void> {
  const writer = new OpenAISseWriter(target.reply.raw, { [REQUEST_ID_HEADER]: target.request.id });
  const start = () => {
    if (writer.started) return;
    // From here on Nest must not answer: the handler owns the raw response.
    target.reply.hijack();
    writer.open();
  };
  const send = (chunks: object[]) => {
    if (chunks.length === 0) return;
    start();
    writer.write(chunks);
  };
  try {
    for await (const part of parts) send(toOpenAIChunks(part, context));
  } catch (error) {
    if (!writer.started) throw error;
    if (target.signal.aborted) {
      writer.close();
      return;
    }
    const failure = toOpenAIError(error);
    target.logger.warn(
      { err: error, requestId: target.request.id, status: failure.status },
      'chat completion stream failed mid-way',
    );
    writer.fail(failure.body);
    return;
  }
  start();
  writer.done();
}
