import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usageReportJsonSchema, type UsageReportJson } from '@agentdesk/api-contract';
import { newId, type TokenUsage, type User } from '@agentdesk/storage';
import { PriceBook } from '../../../src/shared/metering/price-book';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueStaffKeys, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

interface SeededCall {
  readonly at: number;
  readonly owner: User;
  readonly model: string;
  readonly usage: TokenUsage;
}

/** The provider the router would pick for the test's model names (null: none). */
function providerOf(model: string): string | null {
  if (model.startsWith('gpt-')) return 'openai';
  if (model.startsWith('claude-')) return 'anthropic';
  if (model.startsWith('gemini-')) return 'gemini';
  return null;
}

const usage = (input: number, output: number, thinking = 0, cached = 0): TokenUsage => ({
  input,
  output,
  thinking,
  cached,
});

export function describeUsageReport(engine: Engine): void {
  describe(`usage report (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let portalBob: User;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;

    /** One metered model call, stored as the usage meter's writer stores it. */
    async function seed(call: SeededCall): Promise<void> {
      const cost = test.api.app.get(PriceBook).costOf(call.model, call.usage, call.at);
      await test.api.repositories.usage.recordBatch([
        {
          id: newId(call.at),
          occurredAt: call.at,
          source: 'agent-turn',
          model: call.model,
          provider: providerOf(call.model),
          apiKeyId: null,
          portalId: call.owner.portalId,
          endUserId: call.owner.id,
          inputTokens: call.usage.input,
          outputTokens: call.usage.output,
          thinkingTokens: call.usage.thinking,
          cachedTokens: call.usage.cached,
          latencyMs: 5,
          status: 'ok',
          costMicros: cost.costMicros,
          priceId: cost.priceId,
        },
      ]);
    }

    async function report(query: string, key = adminKey.key): Promise<UsageReportJson> {
      const response = await test.request({ method: 'GET', url: `/v1/admin/usage?${query}`, key });
      expect(response.statusCode, response.body).toBe(200);
      return usageReportJsonSchema.parse(response.json());
    }

    beforeEach(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      portalBob = await test.api.repositories.users.create({ externalId: 'bob', portalId: 'shop' });
      ({ adminKey, viewerKey } = await issueStaffKeys(test.api.repositories));
    });
    afterEach(async () => {
      await test.close();
    });

    async function seedThreeDays(): Promise<void> {
      // Day 1 (2026-03-01): two gpt calls by alice, one claude call by bob's portal user.
      await seed({
        at: Date.UTC(2026, 2, 1, 0, 0, 0),
        owner: alice,
        model: 'gpt-4o',
        usage: usage(10, 5, 0, 4),
      });
      await seed({
        at: Date.UTC(2026, 2, 1, 23, 59, 59, 999),
        owner: alice,
        model: 'gpt-4o-mini',
        usage: usage(1, 2),
      });
      await seed({
        at: Date.UTC(2026, 2, 1, 12),
        owner: portalBob,
        model: 'claude-sonnet-4',
        usage: usage(100, 20, 7),
      });
      // Day 2 (2026-03-02): gemini by bob.
      await seed({
        at: Date.UTC(2026, 2, 2, 0, 0, 0),
        owner: portalBob,
        model: 'gemini-2.5-pro',
        usage: usage(3, 3),
      });
      // Outside the range asked for below (the day after).
      await seed({ at: Date.UTC(2026, 2, 3), owner: alice, model: 'gpt-4o', usage: usage(1000, 1000) });
    }

    it('sums exactly what was stored, per UTC day and model, with totals, and audits the read', async () => {
      await seedThreeDays();
      // Messages are not what the report reads: a stored assistant answer adds nothing.
      const session = await test.api.repositories.sessions.create({ ownerUserId: alice.id });
      await test.api.repositories.turnStore.append(alice.id, session.id, {
        role: 'assistant',
        contentParts: [{ type: 'text', text: 'answer' }],
        status: 'complete',
        usage: usage(50, 50),
        model: 'gpt-4o',
      });
      const body = await report('groupBy=model&from=2026-03-01&to=2026-03-02&reason=ticket%207');
      expect(body.from).toBe('2026-03-01');
      expect(body.to).toBe('2026-03-02');
      expect(body.items).toEqual([
        {
          day: '2026-03-01',
          key: 'claude-sonnet-4',
          inputTokens: 100,
          outputTokens: 20,
          thinkingTokens: 7,
          cachedTokens: 0,
          totalTokens: 127,
          modelCalls: 1,
          costMicros: null,
          pricedCostMicros: 0,
          unpricedCalls: 1,
        },
        {
          day: '2026-03-01',
          key: 'gpt-4o',
          inputTokens: 10,
          outputTokens: 5,
          thinkingTokens: 0,
          cachedTokens: 4,
          totalTokens: 15,
          modelCalls: 1,
          costMicros: 70,
          pricedCostMicros: 70,
          unpricedCalls: 0,
        },
        {
          day: '2026-03-01',
          key: 'gpt-4o-mini',
          inputTokens: 1,
          outputTokens: 2,
          thinkingTokens: 0,
          cachedTokens: 0,
          totalTokens: 3,
          modelCalls: 1,
          costMicros: 1,
          pricedCostMicros: 1,
          unpricedCalls: 0,
        },
        {
          day: '2026-03-02',
          key: 'gemini-2.5-pro',
          inputTokens: 3,
          outputTokens: 3,
          thinkingTokens: 0,
          cachedTokens: 0,
          totalTokens: 6,
          modelCalls: 1,
          costMicros: 34,
          pricedCostMicros: 34,
          unpricedCalls: 0,
        },
      ]);
      expect(body.totals.map((total) => [total.key, total.totalTokens])).toEqual([
        ['claude-sonnet-4', 127],
        ['gpt-4o', 15],
        ['gemini-2.5-pro', 6],
        ['gpt-4o-mini', 3],
      ]);
      const audit = await test.api.repositories.audit.list({ action: 'admin.usage.read' }, {});
      expect(audit.items).toHaveLength(1);
      expect(audit.items[0]).toMatchObject({
        actorPrincipalId: adminKey.stored.ownerUserId,
        reason: 'ticket 7',
        targetUserId: null,
        details: { filter: { groupBy: 'model', from: '2026-03-01', to: '2026-03-02' }, count: 4 },
      });
    });

    it('groups by provider (as the router resolved it at the call), portal and user', async () => {
      await seedThreeDays();
      const range = 'from=2026-03-01&to=2026-03-02';
      const byProvider = await report(`groupBy=provider&${range}`, viewerKey.key);
      expect(byProvider.items.map((item) => [item.day, item.key, item.totalTokens, item.modelCalls])).toEqual(
        [
          ['2026-03-01', 'anthropic', 127, 1],
          ['2026-03-01', 'openai', 18, 2],
          ['2026-03-02', 'gemini', 6, 1],
        ],
      );
      const byPortal = await report(`groupBy=portal&${range}`);
      expect(byPortal.items.map((item) => [item.day, item.key, item.totalTokens])).toEqual([
        ['2026-03-01', 'shop', 127],
        ['2026-03-01', null, 18],
        ['2026-03-02', 'shop', 6],
      ]);
      const byUser = await report(`groupBy=user&${range}`);
      expect(byUser.totals.map((total) => [total.key, total.totalTokens, total.modelCalls])).toEqual([
        [portalBob.id, 133, 2],
        [alice.id, 18, 2],
      ]);
    });

    it('a call with no provider is counted under a null provider', async () => {
      await seed({ at: Date.UTC(2026, 2, 1), owner: alice, model: 'mystery-model', usage: usage(2, 2) });
      const body = await report('groupBy=provider&from=2026-03-01&to=2026-03-01');
      expect(body.items.map((item) => [item.key, item.totalTokens])).toEqual([[null, 4]]);
    });

    it('every grouping sums to the same grand total (property)', async () => {
      const days = ['2026-05-01', '2026-05-02', '2026-05-03'];
      const models = ['gpt-4o', 'claude-haiku-4', 'gemini-2.5-flash', 'llama-3'];
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              day: fc.integer({ min: 0, max: 2 }),
              model: fc.constantFrom(...models),
              portalUser: fc.boolean(),
              input: fc.nat(10_000),
              output: fc.nat(10_000),
              thinking: fc.nat(100),
            }),
            { maxLength: 6 },
          ),
          async (calls) => {
            await test.database.database.db.deleteFrom('usage_events').execute();
            await test.database.database.db.deleteFrom('usage_daily_totals').execute();
            for (const call of calls) {
              await seed({
                at: Date.parse(`${days[call.day]}T08:00:00Z`),
                owner: call.portalUser ? portalBob : alice,
                model: call.model,
                usage: usage(call.input, call.output, call.thinking),
              });
            }
            const expected = calls.reduce((sum, call) => sum + call.input + call.output + call.thinking, 0);
            for (const groupBy of ['model', 'provider', 'portal', 'user']) {
              const body = await report(`groupBy=${groupBy}&from=2026-05-01&to=2026-05-03`);
              expect(body.items.reduce((sum, item) => sum + item.totalTokens, 0)).toBe(expected);
              expect(body.totals.reduce((sum, total) => sum + total.modelCalls, 0)).toBe(calls.length);
            }
          },
        ),
        { numRuns: 8 },
      );
    });

    it('defaults to the 30 days up to today by the server clock, and one end alone spans 30 days', async () => {
      test.database.clock.set(Date.UTC(2026, 6, 31, 15));
      expect(await report('groupBy=model')).toMatchObject({ from: '2026-07-02', to: '2026-07-31' });
      expect(await report('groupBy=model&from=2026-02-15')).toMatchObject({
        from: '2026-02-15',
        to: '2026-03-16',
      });
      expect(await report('groupBy=model&to=2026-01-10')).toMatchObject({
        from: '2025-12-12',
        to: '2026-01-10',
      });
      // 366 days, both ends included, is the most one report covers.
      expect(await report('groupBy=model&from=2024-01-01&to=2024-12-31')).toMatchObject({ to: '2024-12-31' });
    });

    it.each([
      ['groupBy missing', 'from=2026-03-01', 'groupBy'],
      ['an unknown grouping', 'groupBy=team', 'groupBy'],
      ['a grouping in another case', 'groupBy=Model', 'groupBy'],
      ['a date that is not a date', 'groupBy=model&from=yesterday', 'from'],
      ['a day that does not exist', 'groupBy=model&to=2026-02-30', 'to'],
      ['a timestamp instead of a date', 'groupBy=model&from=2026-03-01T00:00:00Z', 'from'],
      ['a range ending before it starts', 'groupBy=model&from=2026-03-02&to=2026-03-01', 'to'],
      ['a range over 366 days', 'groupBy=model&from=2025-01-01&to=2026-01-02', 'to'],
      ['a repeated parameter', 'groupBy=model&groupBy=user', 'groupBy'],
      ['an unknown parameter', 'groupBy=model&limit=5', 'limit'],
    ])('refuses %s with a 400 naming the field', async (_case, query, field) => {
      const response = await test.request({
        method: 'GET',
        url: `/v1/admin/usage?${query}`,
        key: adminKey.key,
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(field);
      const audit = await test.api.repositories.audit.list({ action: 'admin.usage.read' }, {});
      expect(audit.items).toHaveLength(0);
    });
  });
}
