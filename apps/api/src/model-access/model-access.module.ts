import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../core/tokens';
import { ModelRouter } from './model-router';

/**
 * The one model-access layer the agent turn, `/v1/chat/completions` and the lab share: one
 * `ModelRouter` (routes, SDK clients reused per endpoint, the per-request timeout) per app.
 */
@Module({
  providers: [
    {
      provide: ModelRouter,
      useFactory: (config: AppConfig) => new ModelRouter(config.models),
      inject: [APP_CONFIG],
    },
  ],
  exports: [ModelRouter],
})
export class ModelAccessModule {}
