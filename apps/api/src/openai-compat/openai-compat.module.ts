import { Inject, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AuthModule } from '../auth/auth.module';
import { ModelAccessModule } from '../model-access/model-access.module';
import { LOGGER } from '../core/tokens';
import { ApiMetrics } from '../metrics/api-metrics';
import { OpenAICompatController } from './openai-compat.controller';
import { sendOpenAIError } from './send-openai-error';

/** The paths whose every error, even one Fastify raises before Nest runs, is in OpenAI's shape. */
const openAICompatiblePaths = new Set(['/v1/chat/completions', '/v1/models']);

/** `POST /v1/chat/completions` and `GET /v1/models`: OpenAI's API over every configured provider. */
@Module({
  imports: [AuthModule, ModelAccessModule],
  controllers: [OpenAICompatController],
})
export class OpenAICompatModule {
  constructor(
    @Inject(HttpAdapterHost) adapterHost: HttpAdapterHost,
    @Inject(LOGGER) logger: Logger,
    @Inject(ApiMetrics) metrics: ApiMetrics,
  ) {
    // Body errors (malformed JSON, too large, wrong content type) happen in Fastify before any Nest
    // filter runs and would get AgentDesk's shape from the global handler. These routes get a
    // route-level Fastify error handler instead. Modules are instantiated before Nest registers
    // routes, so the hook sees them being added.
    const fastify = adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRoute', (route) => {
      if (!openAICompatiblePaths.has(route.url)) return;
      route.errorHandler = (error, request, reply) =>
        sendOpenAIError(error, request, reply, { logger, metrics });
    });
  }
}
