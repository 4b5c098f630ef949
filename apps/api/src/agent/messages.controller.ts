import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptsEventStream } from '../http/accept-header';
import { clientGoneSignal } from '../http/client-gone';
import { END_USER_HEADER, IDEMPOTENCY_KEY_HEADER } from '../http/header-names';
import { RequireScope } from '../routes/route-policy';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses } from '../http/openapi-decorators';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id';
import { namedJsonEvent } from '../http/sse-frame';
import { SseWriter } from '../http/sse-writer';
import { ValidBody, ValidParam } from '../http/validated';
import { Owner, type EffectiveOwner } from '../auth/effective-owner';
import { NotAudited } from '../shared/audit/audited';
import { AgentTurnService } from './agent-turn.service';
import { readIdempotencyKey, sendMessageBody, type SendMessageBody } from './turn-inputs';
import { failedTurnError, toTurnJson, type TurnJson } from './turn-outcome';
import type { TurnEvent } from './turn/turn-events';

/** Sending a message runs an agent turn; the answer is JSON, or SSE events with `Accept: text/event-stream`. */
@ApiTags('sessions')
@ApiKeyAuthenticated()
@ApiHeader({
  name: END_USER_HEADER,
  required: false,
  description: 'Trusted portal keys only: the end user the request acts for',
})
@ApiHeader({
  name: IDEMPOTENCY_KEY_HEADER,
  required: false,
  description:
    'A retried request with the same key returns the same turn; the same key with another body, session or Accept mode answers 422',
})
@Refuses(400, 401, 403, 404, 409, 413, 422, 429, 502, 503, 504)
@Controller('v1/sessions')
export class MessagesController {
  constructor(@Inject(AgentTurnService) private readonly turns: AgentTurnService) {}

  @Post(':id/messages')
  @HttpCode(200)
  @RequireScope('messages:write')
  @NotAudited(
    'a turn of the effective user’s own conversation: stored as its messages and metered as usage, not an administrative change',
  )
  @ApiOperation({
    summary: 'Send the effective user’s message and run the agent turn',
    description:
      'Stores the message first, then calls the session’s model with tools and scratchpad compression. ' +
      'With `Accept: text/event-stream` the turn streams events: turn-start, text-delta, tool-call, tool-result, ' +
      'compression, usage, then turn-end or error. A client disconnect stops the turn and records what was produced.',
  })
  async send(
    @Owner('read', { endUserNameInBody: true }) owner: EffectiveOwner,
    @ValidParam('id', idSchema) sessionId: string,
    @ValidBody(sendMessageBody) body: SendMessageBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TurnJson | undefined> {
    const idempotencyKey = readIdempotencyKey(request.raw.rawHeaders);
    // The client going away aborts the turn: the provider call is cancelled, the partial answer kept.
    const clientGone = clientGoneSignal(reply.raw);
    const streaming = acceptsEventStream(request.headers.accept);
    const turnInput = {
      owner,
      sessionId,
      body,
      signal: clientGone,
      stream: streaming,
      ...(idempotencyKey !== undefined && { idempotencyKey }),
    };
    if (!streaming) {
      const result = await this.turns.run(turnInput, () => undefined);
      if (clientGone.aborted) return undefined;
      if (result.status === 'failed' && !result.replayed) throw failedTurnError(result);
      return toTurnJson(result);
    }
    // `event: <type>` and the event as JSON; no heartbeat (the turn's events are the traffic).
    const writer = new SseWriter<TurnEvent>(reply.raw, {
      frame: (event) => namedJsonEvent(event.type, event),
      headers: { [REQUEST_ID_HEADER]: requestIdOf(request.raw) },
    });
    // Nest must not answer once the stream has begun; errors before it are normal JSON errors.
    const result = await this.turns.run(turnInput, (event) => {
      if (!writer.started) reply.hijack();
      // The runner's sink does not wait: the socket's buffer holds what a slow client has not read.
      void writer.write(event);
    });
    if (!writer.started) {
      // An idempotent replay ran nothing: send it as one JSON answer even to SSE clients.
      return toTurnJson(result);
    }
    writer.end();
    return undefined;
  }
}
