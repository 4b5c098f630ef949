import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import {
  PriceTable,
  type CallCost,
  type ModelPrice,
  type NewModelPrice,
  type Repositories,
  type TokenUsage,
} from '@agentdesk/storage';
import type { Logger } from 'pino';

/** How often a replica checks whether another one added a price version (one `count(*)`). */
export const PRICE_REFRESH_INTERVAL_MS = 15_000;

export interface PriceBookDependencies {
  readonly modelPrices: Repositories['modelPrices'];
  /** The clock usage is stamped with (the repositories'), so a cost uses the price of the call's time. */
  readonly now: () => number;
  readonly logger: Logger;
  readonly refreshIntervalMs?: number;
}

/**
 * The price table in memory, so costing a model call is a map lookup, never a query. Loaded before
 * the API listens; reloaded at once when this process adds a version, and when a periodic check
 * (one `count(*)`: versions are only ever added) finds that another replica did.
 */
export class PriceBook implements OnModuleInit, OnApplicationShutdown {
  private table = new PriceTable([]);
  private loaded: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly dependencies: PriceBookDependencies) {}

  async onModuleInit(): Promise<void> {
    await this.ready();
    this.timer = setInterval(() => {
      void this.refreshIfChanged().catch((error: unknown) =>
        this.dependencies.logger.warn(
          { err: error },
          'model prices could not be re-read; keeping the ones loaded',
        ),
      );
    }, this.dependencies.refreshIntervalMs ?? PRICE_REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Now by the clock usage is stamped with. */
  now(): number {
    return this.dependencies.now();
  }

  /** Every stored version, read from the database (so a listing shows other replicas' additions at once). */
  list(): Promise<ModelPrice[]> {
    return this.dependencies.modelPrices.list();
  }

  /** Resolves once the table has been read (the first read starts here when nothing started it). */
  ready(): Promise<void> {
    this.loaded ??= this.reload();
    return this.loaded;
  }

  /** The version of `model` in effect at `at` (epoch ms), or null when the model has no price then. */
  priceAt(model: string, at: number): ModelPrice | null {
    return this.table.priceAt(model, at);
  }

  /** What a call with `usage` cost at `at` (now by default); unknown (null) without a price, never 0. */
  costOf(model: string, usage: TokenUsage, at: number = this.dependencies.now()): CallCost {
    return this.table.costOf(model, usage, at);
  }

  /** Adds a version and reloads, so this process prices with it from the next call on. */
  async add(price: NewModelPrice): Promise<ModelPrice> {
    const added = await this.dependencies.modelPrices.add(price);
    await this.reload();
    return added;
  }

  /** Re-reads the table when its version count changed (another replica added one). */
  async refreshIfChanged(): Promise<void> {
    if ((await this.dependencies.modelPrices.versionCount()) !== this.table.versions.length)
      await this.reload();
  }

  private async reload(): Promise<void> {
    this.table = new PriceTable(await this.dependencies.modelPrices.list());
  }
}
