import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/**
 * Streaming handlers (SSE turns, streamed chat completions) hijack the reply and write the stream
 * themselves; Nest would then still send the handler's return value and Fastify would log "Reply
 * was already sent" with a stack trace for every stream. A hijacked or finished reply gets nothing.
 */
export class StreamingFastifyAdapter extends FastifyAdapter {
  override reply(
    response: Parameters<FastifyAdapter['reply']>[0],
    body: unknown,
    statusCode?: number,
  ): FastifyReply {
    const reply = response as FastifyReply;
    if (typeof reply.sent === 'boolean' && reply.sent) return reply;
    return super.reply(response, body, statusCode);
  }
}
