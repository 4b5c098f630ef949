import { Global, Inject, Injectable, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { SHARED_STATE } from '../../cluster/cluster-tokens';
import type { SharedState } from '../../cluster/shared-state';
import { LOGGER } from '../../core/tokens';
import { LiveTurnHub } from './live-turn-hub';

/** Ends the readers' open streams first when the app stops (an open stream would hold the server's close). */
@Injectable()
class LiveReadersLifecycle implements BeforeApplicationShutdown {
  constructor(@Inject(LiveTurnHub) private readonly hub: LiveTurnHub) {}

  beforeApplicationShutdown(): void {
    this.hub.stopReaders();
  }
}

/** The hub the turn runner publishes to and session readers follow (global: the agent and admin features meet here). */
@Global()
@Module({
  providers: [
    {
      provide: LiveTurnHub,
      inject: [SHARED_STATE, LOGGER],
      useFactory: (state: SharedState, logger: Logger) => new LiveTurnHub(state, logger),
    },
    LiveReadersLifecycle,
  ],
  exports: [LiveTurnHub],
})
export class LiveTurnsModule {}
