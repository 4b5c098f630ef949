import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '../core/tokens';
import { ApiMetrics } from '../metrics/api-metrics';
import { sendOpenAIError } from './send-openai-error';

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
    sendOpenAIError(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), {
      logger: this.logger,
      metrics: this.metrics,
    });
  }
}
