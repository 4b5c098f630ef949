import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG, LOGGER, REPOSITORIES } from '../../core/tokens';
import { leaseSweepIntervalMs } from '../../config/turn-settings';

/**
 * Every API process periodically marks turns whose lease expired as failed (`turn_interrupted`)
 * and frees their sessions. With several replicas on one PostgreSQL, a replica that dies mid-turn
 * is cleaned up by the others within about 1.5 leases, restart or not; the sweep is one
 * conditional transaction, so concurrent sweeps never count a turn twice.
 */
@Injectable()
export class TurnLeaseSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    }, leaseSweepIntervalMs(this.config.turns.leaseMs));
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One pass; also what the timer runs. */
  async sweep(): Promise<void> {
    try {
      const recovered = await this.repositories.turnStore.recoverInterrupted({ all: false });
      if (recovered.sessions > 0 || recovered.messages > 0) {
        this.logger.warn(
          { interruptedTurns: recovered.sessions, failedMessages: recovered.messages },
          'turn lease sweep: marked turns whose lease expired as interrupted',
        );
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'turn lease sweep failed; retrying at the next interval');
    }
  }
}
