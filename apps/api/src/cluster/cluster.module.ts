import {
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../core/tokens';
import { ApiMetrics } from '../metrics/api-metrics';
import { RATE_COUNTER, SHARED_STATE } from './cluster-tokens';
import { KeyRevocations } from './key-revocations';
import { MemoryRateCounter } from './memory-rate-counter';
import type { RateCounter } from './rate-counter';
import { RedisRateCounter } from './redis-rate-counter';
import { closeSharedState, openSharedState, type SharedState } from './shared-state';
import { registerSharedStateMetrics } from './shared-state-metrics';

/** Subscribes at init, reports in the metrics, and closes the Redis connections when the app stops. */
@Injectable()
class SharedStateLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(SHARED_STATE) private readonly state: SharedState,
    @Inject(KeyRevocations) private readonly revocations: KeyRevocations,
    @Inject(ApiMetrics) metrics: ApiMetrics,
  ) {
    registerSharedStateMetrics(metrics.registry, state);
  }

  onModuleInit(): Promise<void> {
    return this.revocations.start();
  }

  onApplicationShutdown(): Promise<void> {
    return closeSharedState(this.state);
  }
}

/**
 * State shared between replicas: the Redis connections (opened while Nest builds the app, so an
 * unreachable Redis fails the start with `RedisUnavailableError`), the rate counter and the key
 * revocation broadcast.
 */
@Global()
@Module({
  providers: [
    {
      provide: SHARED_STATE,
      inject: [APP_CONFIG, LOGGER],
      useFactory: (config: AppConfig, logger: Logger) => openSharedState(config.cluster, logger),
    },
    {
      provide: RATE_COUNTER,
      inject: [SHARED_STATE, LOGGER],
      useFactory: (state: SharedState, logger: Logger): RateCounter => {
        const counter =
          state.kind === 'redis'
            ? new RedisRateCounter(
                state.availability,
                state.keyPrefix,
                state.location,
                new MemoryRateCounter(),
                logger,
              )
            : new MemoryRateCounter();
        logger.info(
          state.kind === 'redis'
            ? `rate limits: ${counter.description}`
            : 'rate limits: this process only (no AGENTDESK_REDIS_URL)',
        );
        return counter;
      },
    },
    {
      provide: KeyRevocations,
      inject: [SHARED_STATE, LOGGER],
      useFactory: (state: SharedState, logger: Logger) => new KeyRevocations(state, logger),
    },
    SharedStateLifecycle,
  ],
  exports: [SHARED_STATE, RATE_COUNTER, KeyRevocations],
})
export class ClusterModule {}
