import { newId } from '../ids';
import { toModelPrice, type ModelPrice, type TokenPrices } from '../models/model-price';
import { isUniqueViolation, StorageError, StorageErrorCode } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** A new price version of one model. */
export interface NewModelPrice extends TokenPrices {
  readonly model: string;
  readonly provider: string;
  /** Epoch ms from which it is the model's price. */
  readonly effectiveFrom: number;
  /** The principal adding it. */
  readonly createdBy: string;
}

/**
 * Model price versions (`model_prices`, migration 0014): append-only — a version is added, never
 * updated or deleted, so a cost computed with it can always be traced back to it. The price in
 * effect at t is the model's version with the latest `effectiveFrom` ≤ t.
 */
export class ModelPricesRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Every version of every model: by model, newest `effectiveFrom` first. */
  async list(): Promise<ModelPrice[]> {
    const rows = await this.context.db
      .selectFrom('model_prices')
      .selectAll()
      .orderBy('model')
      .orderBy('effective_from', 'desc')
      .execute();
    return rows.map(toModelPrice);
  }

  /** The version of `model` in effect at `at` (epoch ms), or null when it has none. */
  async inEffectAt(model: string, at: number): Promise<ModelPrice | null> {
    const row = await this.context.db
      .selectFrom('model_prices')
      .selectAll()
      .where('model', '=', model)
      .where('effective_from', '<=', at)
      .orderBy('effective_from', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? null : toModelPrice(row);
  }

  /**
   * How many versions are stored: versions are only ever added, so a replica that sees the same
   * count has them all (its cheap check before re-reading the table).
   */
  async versionCount(): Promise<number> {
    const row = await this.context.db
      .selectFrom('model_prices')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Adds a version. `Conflict` when the model already has one from the same instant. */
  async add(price: NewModelPrice): Promise<ModelPrice> {
    const now = this.context.clock();
    try {
      const row = await this.context.db
        .insertInto('model_prices')
        .values({
          id: newId(now),
          model: price.model,
          provider: price.provider,
          input_micros_per_million: price.inputMicrosPerMillion,
          cached_input_micros_per_million: price.cachedInputMicrosPerMillion,
          output_micros_per_million: price.outputMicrosPerMillion,
          thinking_micros_per_million: price.thinkingMicrosPerMillion,
          effective_from: price.effectiveFrom,
          created_at: now,
          created_by: price.createdBy,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toModelPrice(row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new StorageError(
          StorageErrorCode.Conflict,
          'model-price',
          `${price.model} already has a price version effective from that instant`,
          { cause: error },
        );
      throw error;
    }
  }
}
