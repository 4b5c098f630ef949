import type { Repositories } from '@agentdesk/storage';
import type { Logger } from 'pino';
import { TurnFailure } from './turn-failure';
import { leaseRenewalIntervalMs } from '../../config/turn-settings';

/** Recorded when another process took over this turn's lease (it had expired: this process stalled). */
export const leaseLostFailure = (): TurnFailure =>
  new TurnFailure({
    code: 'turn_interrupted',
    message:
      'The turn lost its session lease (the server stalled past the lease time) and was stopped; send the message again to retry',
  });

/** Which lease to keep alive. */
export interface HeldLease {
  readonly sessionId: string;
  readonly turnId: string;
  readonly leaseMs: number;
}

/**
 * Keeps a turn's session lease alive on a timer for as long as the turn runs — model calls, long
 * tools, compression alike — so the lease can be short. When a renewal finds the lease gone (this
 * process stalled past the lease and another took over), `signal` aborts with a `turn_interrupted`
 * `TurnFailure`: the turn stops instead of writing into a session it no longer holds.
 */
export class TurnLeaseHeartbeat {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private renewal: Promise<void> | undefined;

  constructor(
    private readonly turnStore: Repositories['turnStore'],
    private readonly lease: HeldLease,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => {
      // One renewal at a time: a slow database must not pile them up.
      this.renewal ??= this.renew().finally(() => (this.renewal = undefined));
    }, leaseRenewalIntervalMs(lease.leaseMs));
    // A turn's heartbeat alone must not keep the process alive.
    this.timer.unref();
  }

  /** Aborted when the lease was lost; its reason is the `TurnFailure` to record. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get lost(): boolean {
    return this.controller.signal.aborted;
  }

  /** Stops renewing (before the lease is released). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.renewal;
  }

  private async renew(): Promise<void> {
    try {
      const held = await this.turnStore.renew(this.lease.sessionId, this.lease.turnId, this.lease.leaseMs);
      if (held || this.lost) return;
      clearInterval(this.timer);
      this.logger.warn(
        { sessionId: this.lease.sessionId, turnId: this.lease.turnId },
        'a running turn lost its session lease (it expired and was taken over); stopping the turn',
      );
      this.controller.abort(leaseLostFailure());
    } catch (error) {
      // The next tick tries again; the lease outlives two failed renewals.
      this.logger.warn(
        { err: error, sessionId: this.lease.sessionId, turnId: this.lease.turnId },
        'renewing a turn lease failed',
      );
    }
  }
}
