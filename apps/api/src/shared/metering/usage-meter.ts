import type { OnApplicationShutdown } from '@nestjs/common';
import { newId, type NewUsageEvent, type Repositories, type UsageStatus } from '@agentdesk/storage';
import type { Logger } from 'pino';
import { EndUserResolver } from './end-user-resolver';
import type { MeteredCall, MeteredTokens, ModelCallOrigin } from './metered-call';
import type { PriceBook } from './price-book';
import type { UsageMeterMetrics } from './usage-meter-metrics';
import { MAX_RETRY_DELAY_MS, type UsageMeterSettings } from '../../config/usage-meter-settings';

/** Write attempts at shutdown before what is still buffered is given up (and counted). */
const SHUTDOWN_WRITE_ATTEMPTS = 3;

export interface UsageMeterDependencies {
  readonly usage: Repositories['usage'];
  readonly users: Repositories['users'];
  /** The prices each call is costed with when its row is written (in memory: no query per call). */
  readonly prices: PriceBook;
  /** The dev-mode user the anonymous principal's calls are metered for. */
  readonly devUserId: string | null;
  readonly settings: UsageMeterSettings;
  readonly logger: Logger;
  readonly metrics: UsageMeterMetrics;
}

/**
 * Meters model calls off the request path. `record` only pushes into a bounded in-memory buffer;
 * a writer stores the buffer in batches (one multi-row insert each, idempotent by the id generated
 * at the call) every `flushIntervalMs`, or at once when a batch is full. When the database cannot
 * be written, the batch goes back to the front of the buffer and is retried with exponential
 * backoff; beyond `maxBufferedEvents` the oldest calls are dropped, logged and counted. Shutdown
 * writes what is left.
 */
export class UsageMeter implements OnApplicationShutdown {
  private buffer: MeteredCall[] = [];
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private consecutiveFailures = 0;
  /** Set at shutdown: calls that end after it (requests still in flight) are written at once. */
  private shuttingDown = false;
  /** Dropped since the last log line about it (logged once per failed write, not per call). */
  private droppedUnlogged = 0;
  private readonly endUsers: EndUserResolver;

  constructor(private readonly dependencies: UsageMeterDependencies) {
    this.endUsers = new EndUserResolver(dependencies.users, dependencies.devUserId);
    dependencies.metrics.bufferedNow = () => this.buffer.length;
  }

  /** The prices calls are costed with (the agent turn costs its answers for the session's totals with it too). */
  get prices(): PriceBook {
    return this.dependencies.prices;
  }

  /** Calls waiting to be written. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Records one call outcome: synchronous, no I/O, nothing awaited. */
  record(origin: ModelCallOrigin, status: UsageStatus, tokens: MeteredTokens, latencyMs: number): void {
    const occurredAt = this.dependencies.usage.now();
    this.buffer.push({ id: newId(occurredAt), occurredAt, origin, tokens, latencyMs, status });
    this.dropOverflow();
    const batchFull = this.buffer.length >= this.dependencies.settings.batchSize;
    if ((batchFull || this.shuttingDown) && this.consecutiveFailures === 0) this.startWriting();
    else this.scheduleWrite(this.dependencies.settings.flushIntervalMs);
  }

  /**
   * Writes everything buffered now; rejects with the database's error when a batch cannot be
   * written (the batch stays buffered for the next attempt).
   */
  async flush(): Promise<void> {
    this.cancelTimer();
    for (;;) {
      // A write already running (the timer's) finishes first; it may have failed, so try again.
      while (this.writing !== undefined) await this.writing;
      if (this.buffer.length === 0) return;
      const failuresBefore = this.consecutiveFailures;
      this.startWriting();
      await this.writing;
      if (this.consecutiveFailures > failuresBefore) throw new Error('the usage batch could not be written');
    }
  }

  /** Nest shutdown (the app's `close()`): write what is left, a few attempts, then count the loss. */
  async onApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    for (let attempt = 1; attempt <= SHUTDOWN_WRITE_ATTEMPTS; attempt++) {
      try {
        await this.flush();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
    this.cancelTimer();
    const lost = this.buffer.length;
    this.buffer = [];
    this.dependencies.metrics.dropped.inc({ reason: 'shutdown' }, lost);
    this.dependencies.logger.error(
      { lostUsageEvents: lost },
      'usage events could not be written at shutdown',
    );
  }

  private dropOverflow(): void {
    const excess = this.buffer.length - this.dependencies.settings.maxBufferedEvents;
    if (excess <= 0) return;
    this.buffer.splice(0, excess);
    this.dependencies.metrics.dropped.inc({ reason: 'buffer-full' }, excess);
    this.droppedUnlogged += excess;
  }

  private scheduleWrite(delayMs: number): void {
    if (this.timer !== undefined || this.writing !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.startWriting();
    }, delayMs);
    // A pending write never keeps the process alive: shutdown writes what is left.
    this.timer.unref();
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private startWriting(): void {
    if (this.writing !== undefined) return;
    this.cancelTimer();
    this.writing = this.writeAll().finally(() => {
      this.writing = undefined;
      if (this.buffer.length === 0) return;
      const { flushIntervalMs } = this.dependencies.settings;
      this.scheduleWrite(
        this.consecutiveFailures === 0
          ? flushIntervalMs
          : Math.min(MAX_RETRY_DELAY_MS, flushIntervalMs * 2 ** this.consecutiveFailures),
      );
    });
  }

  /** Writes batch after batch until the buffer is empty or a write fails. Never rejects. */
  private async writeAll(): Promise<void> {
    const { settings, metrics, logger } = this.dependencies;
    while (this.buffer.length > 0) {
      // Taken out while it is written, so an overflow meanwhile drops older waiting calls, not these.
      const batch = this.buffer.splice(0, settings.batchSize);
      try {
        const stored = await this.dependencies.usage.recordBatch(await this.toRows(batch));
        metrics.written.inc(stored);
        if (this.consecutiveFailures > 0)
          logger.info({ failedAttempts: this.consecutiveFailures }, 'usage events are being written again');
        this.consecutiveFailures = 0;
      } catch (error) {
        this.buffer = batch.concat(this.buffer);
        this.dropOverflow();
        this.consecutiveFailures += 1;
        metrics.writeFailures.inc();
        logger.warn(
          {
            err: error,
            bufferedUsageEvents: this.buffer.length,
            failedAttempts: this.consecutiveFailures,
            // Oldest calls dropped because the buffer was full since the last such line.
            droppedUsageEvents: this.droppedUnlogged,
          },
          'usage events could not be written; retrying with backoff',
        );
        this.droppedUnlogged = 0;
        return;
      }
    }
  }

  private async toRows(batch: readonly MeteredCall[]): Promise<NewUsageEvent[]> {
    const rows: NewUsageEvent[] = [];
    const { prices } = this.dependencies;
    await prices.ready();
    for (const call of batch) {
      const { origin, tokens } = call;
      // The price in effect when the call was made, kept with the row: a later price changes nothing.
      const cost = prices.costOf(
        origin.model,
        {
          input: tokens.inputTokens,
          output: tokens.outputTokens,
          thinking: tokens.thinkingTokens,
          cached: tokens.cachedInputTokens,
        },
        call.occurredAt,
      );
      rows.push({
        id: call.id,
        occurredAt: call.occurredAt,
        source: origin.source,
        model: origin.model,
        provider: origin.provider,
        apiKeyId: origin.apiKeyId,
        portalId: origin.portalId,
        endUserId: await this.endUsers.resolve(origin.endUser, origin.endUserName),
        inputTokens: tokens.inputTokens,
        outputTokens: tokens.outputTokens,
        thinkingTokens: tokens.thinkingTokens,
        cachedTokens: tokens.cachedInputTokens,
        latencyMs: call.latencyMs,
        status: call.status,
        costMicros: cost.costMicros,
        priceId: cost.priceId,
      });
    }
    return rows;
  }
}
