import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorReporting } from '../http/http-error-handling';
import { agentDeskCodeOf, toOpenAIError } from './openai-error';

/** Logs, counts and answers one failure of an OpenAI-compatible route in OpenAI's error shape. */
export function sendOpenAIError(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  reporting: ErrorReporting,
): void {
  const failure = toOpenAIError(exception);
  const requestId = typeof request?.id === 'string' ? request.id : null;
  if (failure.status >= 500) {
    reporting.logger.error(
      { err: exception, requestId, status: failure.status },
      'OpenAI-compatible request failed',
    );
  } else {
    reporting.logger.debug(
      { requestId, status: failure.status, reason: failure.body.error.message },
      'OpenAI-compatible request refused',
    );
  }
  reporting.metrics.errors.inc({ code: agentDeskCodeOf(exception) });
  if (reply.sent) return;
  void reply
    .status(failure.status)
    .headers({ ...failure.headers, 'content-type': 'application/json; charset=utf-8' })
    .send(failure.body);
}
