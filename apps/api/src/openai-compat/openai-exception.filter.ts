import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '../core/tokens';
import { ApiMetrics } from '../metrics/api-metrics';
import { agentDeskCodeOf, toOpenAIError } from './openai-error';

/**
 * Answers every failure of the OpenAI-compatible routes in OpenAI's error shape, so OpenAI clients
 * raise their usual error classes. Controller-scoped: it also receives the global guard's 401, 403
 * and 429 (guards run inside the route's filter chain), while every other route keeps AgentDesk's shape.
 */
@Catch()
export class OpenAIExceptionFilter implements ExceptionFilter {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const failure = toOpenAIError(exception);
    const requestId = typeof request?.id === 'string' ? request.id : null;
    if (failure.status >= 500) {
      this.logger.error({ err: exception, requestId, status: failure.status }, 'OpenAI-compatible request failed');
    } else {
      this.logger.debug({ requestId, status: failure.status, reason: failure.body.error.message }, 'OpenAI-compatible request refused');
    }
    this.metrics.errors.inc({ code: agentDeskCodeOf(exception) });
    if (reply.sent) return;
    void reply
      .status(failure.status)
      .headers({ ...failure.headers, 'content-type': 'application/json; charset=utf-8' })
      .send(failure.body);
  }
}
