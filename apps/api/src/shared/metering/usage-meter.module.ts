import { Global, Module } from '@nestjs/common';
import type { Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';
import type { AccessContext } from '../../core/access-context';
import { ACCESS_CONTEXT, APP_CONFIG, LOGGER, REPOSITORIES } from '../../core/tokens';
import { ApiMetrics } from '../../metrics/api-metrics';
import { PriceBook } from './price-book';
import { UsageMeter } from './usage-meter';
import { UsageMeterMetrics } from './usage-meter-metrics';

/**
 * The meter every model call records into (global: the completions route, the agent turn and the lab
 * all record), and the price book it costs them with.
 */
@Global()
@Module({
  providers: [
    {
      provide: PriceBook,
      useFactory: (repositories: Repositories, logger: Logger) =>
        new PriceBook({
          modelPrices: repositories.modelPrices,
          now: () => repositories.usage.now(),
          logger,
        }),
      inject: [REPOSITORIES, LOGGER],
    },
    {
      provide: UsageMeter,
      useFactory: (
        repositories: Repositories,
        config: AppConfig,
        logger: Logger,
        metrics: ApiMetrics,
        access: AccessContext,
        prices: PriceBook,
      ) =>
        new UsageMeter({
          usage: repositories.usage,
          users: repositories.users,
          prices,
          devUserId: access.devUserId,
          settings: config.usage,
          logger,
          metrics: new UsageMeterMetrics(metrics.registry),
        }),
      inject: [REPOSITORIES, APP_CONFIG, LOGGER, ApiMetrics, ACCESS_CONTEXT, PriceBook],
    },
  ],
  exports: [UsageMeter, PriceBook],
})
export class UsageMeterModule {}
