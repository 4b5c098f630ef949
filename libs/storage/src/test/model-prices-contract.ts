import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../ids';
import { costMicrosOf, type TokenPrices } from '../models/model-price';
import type { NewUsageEvent } from '../repositories/usage-repository';
import { StorageErrorCode } from '../storage-error';
import { createUser, expectStorageError, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

const prices: TokenPrices = {
  inputMicrosPerMillion: 2_500_000,
  cachedInputMicrosPerMillion: 1_250_000,
  outputMicrosPerMillion: 10_000_000,
  thinkingMicrosPerMillion: 10_000_000,
};

function event(occurredAt: number, overrides: Partial<NewUsageEvent>): NewUsageEvent {
  return {
    id: newId(occurredAt),
    occurredAt,
    source: 'agent-turn',
    model: 'gpt-4o',
    provider: 'openai',
    apiKeyId: null,
    portalId: null,
    endUserId: 'u-alice',
    inputTokens: 1_000,
    outputTokens: 100,
    thinkingTokens: 0,
    cachedTokens: 0,
    latencyMs: 5,
    status: 'ok',
    costMicros: null,
    priceId: null,
    ...overrides,
  };
}

/** Model price versions and the costs stored with usage events, daily totals and sessions. */
export function describeModelPricesContract(factory: TestDatabaseFactory): void {
  describe('model prices and costs', () => {
    const current = useTestDatabase(factory);

    it('seeds the documented defaults, in effect from the beginning', async () => {
      const { repositories } = current();
      const gpt4o = await repositories.modelPrices.inEffectAt('gpt-4o', Date.UTC(2026, 0, 1));
      expect(gpt4o).toMatchObject({
        provider: 'openai',
        inputMicrosPerMillion: 2_500_000,
        cachedInputMicrosPerMillion: 1_250_000,
        outputMicrosPerMillion: 10_000_000,
        createdBy: 'seed',
      });
      expect(gpt4o?.effectiveFrom.getTime()).toBe(0);
      const models = new Set((await repositories.modelPrices.list()).map((price) => price.model));
      for (const model of ['gpt-4o-mini', 'claude-sonnet-4-20250514', 'gemini-2.5-pro'])
        expect(models).toContain(model);
      expect(await repositories.modelPrices.inEffectAt('gpt-test', Date.UTC(2026, 0, 1))).toBeNull();
    });

    it('the price in effect at t is the latest version effective at or before t; versions stay as added', async () => {
      const { repositories } = current();
      const march = Date.UTC(2026, 2, 1);
      const before = await repositories.modelPrices.versionCount();
      const added = await repositories.modelPrices.add({
        model: 'gpt-4o',
        provider: 'openai',
        ...prices,
        inputMicrosPerMillion: 2_000_000,
        effectiveFrom: march,
        createdBy: 'u-admin',
      });
      expect(await repositories.modelPrices.versionCount()).toBe(before + 1);
      expect((await repositories.modelPrices.inEffectAt('gpt-4o', march - 1))?.id).toBe('seed-gpt-4o');
      expect((await repositories.modelPrices.inEffectAt('gpt-4o', march))?.id).toBe(added.id);
      expect(
        (await repositories.modelPrices.inEffectAt('gpt-4o', march + 86_400_000))?.inputMicrosPerMillion,
      ).toBe(2_000_000);
      const history = (await repositories.modelPrices.list()).filter((price) => price.model === 'gpt-4o');
      expect(history.map((price) => price.id)).toEqual([added.id, 'seed-gpt-4o']);
      expect(history[1]?.inputMicrosPerMillion).toBe(2_500_000);
      // Two versions of one model cannot take effect at the same instant.
      await expectStorageError(
        repositories.modelPrices.add({
          model: 'gpt-4o',
          provider: 'openai',
          ...prices,
          effectiveFrom: march,
          createdBy: 'u-admin',
        }),
        StorageErrorCode.Conflict,
        'model-price',
      );
    });

    it('events keep the cost they were written with; daily totals sum costs and count unpriced calls', async () => {
      const { database, repositories } = current();
      const at = Date.UTC(2026, 2, 2, 10);
      const seed = (await repositories.modelPrices.inEffectAt('gpt-4o', at))!;
      const priced = event(at, {
        costMicros: costMicrosOf(seed, { input: 1_000, output: 100, thinking: 0, cached: 0 }),
        priceId: seed.id,
      });
      expect(priced.costMicros).toBe(3_500); // 1000 × $2.50/M + 100 × $10/M = $0.0035
      await repositories.usage.recordBatch([priced, event(at + 1, { model: 'gpt-test' })]);
      // A newer price changes nothing already written.
      await repositories.modelPrices.add({
        model: 'gpt-4o',
        provider: 'openai',
        ...prices,
        inputMicrosPerMillion: 1,
        effectiveFrom: at - 1_000,
        createdBy: 'u-admin',
      });
      const stored = await database.db
        .selectFrom('usage_events')
        .select(['model', 'cost_micros', 'price_id'])
        .orderBy('occurred_at')
        .execute();
      expect(
        stored.map((row) => [
          row.model,
          row.cost_micros === null ? null : Number(row.cost_micros),
          row.price_id,
        ]),
      ).toEqual([
        ['gpt-4o', 3_500, 'seed-gpt-4o'],
        ['gpt-test', null, null],
      ]);
      const byModel = await repositories.usage.dailyUsage(
        { fromDay: '2026-03-02', toDay: '2026-03-02' },
        'model',
      );
      expect(byModel.map((row) => [row.key, row.costMicros, row.unpricedCalls])).toEqual([
        ['gpt-4o', 3_500, 0],
        ['gpt-test', 0, 1],
      ]);
      const byUser = await repositories.usage.dailyUsage(
        { fromDay: '2026-03-02', toDay: '2026-03-02' },
        'user',
      );
      expect(byUser.map((row) => [row.key, row.costMicros, row.unpricedCalls, row.modelCalls])).toEqual([
        ['u-alice', 3_500, 1, 2],
      ]);
    });

    it('a session adds each answer’s cost, and counts answers without a price', async () => {
      const database = current();
      const owner = await createUser(database, 'alice');
      const { sessions, turnStore } = database.repositories;
      const session = await sessions.create({ ownerUserId: owner.id, label: 'cost' });
      const usage = { input: 1_000, output: 100, thinking: 0, cached: 0 };
      for (const cost of [
        { costMicros: 3_500, priceId: 'seed-gpt-4o' },
        { costMicros: null, priceId: null },
      ]) {
        const pending = await turnStore.append(owner.id, session.id, {
          role: 'assistant',
          contentParts: [],
          status: 'pending',
        });
        await turnStore.recordAnswer(owner.id, session.id, pending.message.id, { usage, cost });
      }
      const failed = await turnStore.append(owner.id, session.id, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
      });
      await turnStore.fail(owner.id, session.id, failed.message.id, {
        error: { code: 'provider_error', message: 'x' },
        usage,
        cost: { costMicros: 1_500, priceId: 'seed-gpt-4o' },
      });
      const read = await sessions.getForOwner(owner.id, session.id);
      expect(read).toMatchObject({ costMicros: 5_000, unpricedCalls: 1, tokenTotals: { input: 3_000 } });
    });

    it('cost is exact: the cost of calls summed per day equals the sum of their costs (property)', async () => {
      const { database, repositories } = current();
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              input: fc.nat(2_000_000),
              cached: fc.nat(2_000_000),
              output: fc.nat(500_000),
              thinking: fc.nat(500_000),
              price: fc.nat(200_000_000),
            }),
            { minLength: 1, maxLength: 10 },
          ),
          async (calls) => {
            await database.db.deleteFrom('usage_events').execute();
            await database.db.deleteFrom('usage_daily_totals').execute();
            const at = Date.UTC(2026, 5, 1, 8);
            const events = calls.map((call, index) => {
              const cost = costMicrosOf(
                {
                  inputMicrosPerMillion: call.price,
                  cachedInputMicrosPerMillion: Math.floor(call.price / 10),
                  outputMicrosPerMillion: call.price * 4,
                  thinkingMicrosPerMillion: call.price * 4,
                },
                {
                  input: call.input,
                  cached: Math.min(call.cached, call.input),
                  output: call.output,
                  thinking: call.thinking,
                },
              );
              expect(Number.isSafeInteger(cost)).toBe(true);
              return event(at + index, { costMicros: cost, priceId: 'p' });
            });
            await repositories.usage.recordBatch(events);
            const [total] = await repositories.usage.dailyUsage(
              { fromDay: '2026-06-01', toDay: '2026-06-01' },
              'provider',
            );
            const expected = events.reduce((sum, next) => sum + BigInt(next.costMicros!), 0n);
            expect(BigInt(total!.costMicros)).toBe(expected);
            const [stored] = await sql<{
              total: string | number;
            }>`select sum(cost_micros) as total from usage_events`
              .execute(database.db)
              .then((result) => result.rows);
            expect(BigInt(stored!.total)).toBe(expected);
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
