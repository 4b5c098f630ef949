import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId } from '../ids';
import type { NewUsageEvent, UsageGroupColumn } from '../repositories/usage-repository';
import { useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

function usageEvent(occurredAt: number, overrides: Partial<NewUsageEvent> = {}): NewUsageEvent {
  return {
    id: newId(occurredAt),
    occurredAt,
    source: 'chat-completion',
    model: 'gpt-4o',
    provider: 'openai',
    apiKeyId: 'k-1',
    portalId: null,
    endUserId: 'u-alice',
    inputTokens: 10,
    outputTokens: 5,
    thinkingTokens: 0,
    cachedTokens: 0,
    latencyMs: 12,
    status: 'ok',
    costMicros: null,
    priceId: null,
    ...overrides,
  };
}

const groupings: readonly UsageGroupColumn[] = ['model', 'provider', 'portal', 'user'];

/** Usage events: idempotent batch writes and the day × key aggregation the usage report reads. */
export function describeUsageEventsContract(factory: TestDatabaseFactory): void {
  describe('usage events', () => {
    const current = useTestDatabase(factory);

    it('a batch written twice (a retry after a lost acknowledgement) counts once', async () => {
      const { repositories } = current();
      const at = Date.UTC(2026, 2, 1, 9);
      const batch = [usageEvent(at), usageEvent(at + 1, { inputTokens: 7 }), usageEvent(at + 2)];
      expect(await repositories.usage.recordBatch(batch)).toBe(3);
      expect(await repositories.usage.recordBatch(batch)).toBe(0);
      // A retried batch that grew by one new event stores only that one.
      const grown = [...batch, usageEvent(at + 3, { inputTokens: 100 })];
      expect(await repositories.usage.recordBatch(grown)).toBe(1);
      const rows = await repositories.usage.dailyUsage(
        { fromDay: '2026-03-01', toDay: '2026-03-01' },
        'model',
      );
      expect(rows).toEqual([
        {
          day: '2026-03-01',
          key: 'gpt-4o',
          inputTokens: 10 + 7 + 10 + 100,
          outputTokens: 20,
          thinkingTokens: 0,
          cachedTokens: 0,
          modelCalls: 4,
          costMicros: 0,
          unpricedCalls: 4,
        },
      ]);
      expect(await repositories.usage.recordBatch([])).toBe(0);
    });

    it('sums per UTC day (range ends included) and group column, with null keys kept apart', async () => {
      const { repositories } = current();
      await repositories.usage.recordBatch([
        usageEvent(Date.UTC(2026, 2, 1, 0, 0, 0), { cachedTokens: 4 }),
        usageEvent(Date.UTC(2026, 2, 1, 23, 59, 59, 999), {
          model: 'claude-sonnet-4',
          provider: 'anthropic',
          portalId: 'shop',
          endUserId: 'u-bob',
          thinkingTokens: 3,
          source: 'agent-turn',
        }),
        usageEvent(Date.UTC(2026, 2, 2), {
          provider: null,
          model: 'mystery',
          status: 'failed',
          inputTokens: 0,
          outputTokens: 0,
        }),
        // Outside the range.
        usageEvent(Date.UTC(2026, 1, 28, 23, 59, 59, 999), { inputTokens: 1000 }),
        usageEvent(Date.UTC(2026, 2, 3), { inputTokens: 1000 }),
      ]);
      const range = { fromDay: '2026-03-01', toDay: '2026-03-02' };
      const keys = async (groupBy: UsageGroupColumn) =>
        (await repositories.usage.dailyUsage(range, groupBy)).map((row) => [
          row.day,
          row.key,
          row.modelCalls,
        ]);
      expect(await keys('provider')).toEqual(
        expect.arrayContaining([
          ['2026-03-01', 'openai', 1],
          ['2026-03-01', 'anthropic', 1],
          ['2026-03-02', null, 1],
        ]),
      );
      expect(await keys('portal')).toEqual(
        expect.arrayContaining([
          ['2026-03-01', 'shop', 1],
          ['2026-03-01', null, 1],
          ['2026-03-02', null, 1],
        ]),
      );
      expect(await keys('user')).toHaveLength(3);
      const byModel = await repositories.usage.dailyUsage(range, 'model');
      expect(
        byModel.map((row) => [row.day, row.key, row.inputTokens, row.thinkingTokens, row.cachedTokens]),
      ).toEqual([
        ['2026-03-01', 'claude-sonnet-4', 10, 3, 0],
        ['2026-03-01', 'gpt-4o', 10, 0, 4],
        ['2026-03-02', 'mystery', 0, 0, 0],
      ]);
    });

    it('any interleaving of retried batches sums to the distinct events, in every grouping (property)', async () => {
      const { database, repositories } = current();
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              day: fc.integer({ min: 0, max: 2 }),
              model: fc.constantFrom('gpt-4o', 'claude-haiku-4', 'gemini-2.5-flash'),
              portalId: fc.constantFrom(null, 'shop'),
              input: fc.nat(10_000),
              output: fc.nat(10_000),
            }),
            { minLength: 1, maxLength: 12 },
          ),
          fc.array(fc.tuple(fc.nat(11), fc.nat(11)), { maxLength: 6 }),
          async (calls, replays) => {
            await database.db.deleteFrom('usage_events').execute();
            await database.db.deleteFrom('usage_daily_totals').execute();
            const events = calls.map((call) =>
              usageEvent(Date.UTC(2026, 4, 1 + call.day, 8), {
                model: call.model,
                portalId: call.portalId,
                inputTokens: call.input,
                outputTokens: call.output,
              }),
            );
            await repositories.usage.recordBatch(events);
            // Slices written again, as a writer retrying after a crash would.
            for (const [start, length] of replays)
              await repositories.usage.recordBatch(events.slice(start, start + length + 1));
            const expected = calls.reduce((sum, call) => sum + call.input + call.output, 0);
            for (const groupBy of groupings) {
              const rows = await repositories.usage.dailyUsage(
                { fromDay: '2026-05-01', toDay: '2026-05-03' },
                groupBy,
              );
              expect(rows.reduce((sum, row) => sum + row.inputTokens + row.outputTokens, 0)).toBe(expected);
              expect(rows.reduce((sum, row) => sum + row.modelCalls, 0)).toBe(calls.length);
            }
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
