import { Global, Module } from '@nestjs/common';
import type { Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';
import type { AccessContext } from '../../core/access-context';
import { ACCESS_CONTEXT, APP_CONFIG, LOGGER, REPOSITORIES } from '../../core/tokens';
import { ApiMetrics } from '../../metrics/api-metrics';
import { UsageMeter } from './usage-meter';
import { UsageMeterMetrics } from './usage-meter-metrics';

/** The meter every model call records into (global: the completions route, the agent turn and the lab all record). */
@Global()
@Module({
  providers: [
    {
      provide: UsageMeter,
      useFactory: (
        repositories: Repositories,
        config: AppConfig,
        logger: Logger,
        metrics: ApiMetrics,
        access: AccessContext,
      ) =>
        new UsageMeter({
          usage: repositories.usage,
          users: repositories.users,
          devUserId: access.devUserId,
          settings: config.usage,
          logger,
          metrics: new UsageMeterMetrics(metrics.registry),
        }),
      inject: [REPOSITORIES, APP_CONFIG, LOGGER, ApiMetrics, ACCESS_CONTEXT],
    },
  ],
  exports: [UsageMeter],
})
export class UsageMeterModule {}
