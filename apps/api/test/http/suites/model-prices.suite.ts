import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  modelPriceListJsonSchema,
  runJsonSchema,
  sessionJsonSchema,
  usageReportJsonSchema,
} from '@agentdesk/api-contract';
import type { User } from '@agentdesk/storage';
import { UsageMeter } from '../../../src/shared/metering/usage-meter';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issueStaffKeys,
  issueUserKey,
  type IssuedKey,
} from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

const labSchema = {
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  additionalProperties: false,
};

/** Model prices: the admin routes, and the cost every model call gets when it is written. */
export function describeModelPrices(engine: Engine): void {
  describe(`model prices and costs (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let aliceKey: IssuedKey;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;

    beforeEach(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
      ({ adminKey, viewerKey } = await issueStaffKeys(test.api.repositories));
    });
    afterEach(async () => {
      await test.close();
    });

    const addPrice = (body: object, key = adminKey.key) =>
      test.request({ method: 'POST', url: '/v1/admin/model-prices', key, body });
    const gptTestPrice = {
      model: 'gpt-test',
      provider: 'openai',
      inputUsdPerMillion: '2.50',
      cachedInputUsdPerMillion: '1.25',
      outputUsdPerMillion: '10',
    };
    const turn = async (sessionId: string) => {
      const answer = await test.request({
        method: 'POST',
        url: `/v1/sessions/${sessionId}/messages`,
        key: aliceKey.key,
        body: { content: 'Hello' },
      });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    const report = async (query: string) => {
      const answer = await test.request({
        method: 'GET',
        url: `/v1/admin/usage?${query}`,
        key: adminKey.key,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return usageReportJsonSchema.parse(answer.json());
    };

    it('lists the seeded prices with the current one marked, to admins and viewers only', async () => {
      const listed = await test.request({ method: 'GET', url: '/v1/admin/model-prices', key: viewerKey.key });
      expect(listed.statusCode).toBe(200);
      const { items } = modelPriceListJsonSchema.parse(listed.json());
      expect(items.find((price) => price.model === 'gpt-4o')).toMatchObject({
        provider: 'openai',
        inputUsdPerMillion: '2.50',
        cachedInputUsdPerMillion: '1.25',
        outputUsdPerMillion: '10.00',
        thinkingUsdPerMillion: '10.00',
        effectiveFrom: '1970-01-01T00:00:00.000Z',
        createdBy: 'seed',
        current: true,
      });
      expect(
        (await test.request({ method: 'GET', url: '/v1/admin/model-prices', key: aliceKey.key })).statusCode,
      ).toBe(403);
      expect((await addPrice(gptTestPrice, viewerKey.key)).statusCode).toBe(403);
    });

    it('adds a version (audited), keeps the earlier one in the history, and refuses bad input naming the field', async () => {
      const future = new Date(Date.UTC(2026, 5, 1)).toISOString();
      const added = await addPrice({
        ...gptTestPrice,
        model: 'gpt-4o',
        inputUsdPerMillion: '2.000001',
        effectiveFrom: future,
      });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toMatchObject({
        model: 'gpt-4o',
        inputUsdPerMillion: '2.000001',
        thinkingUsdPerMillion: '10.00',
        effectiveFrom: future,
        current: false,
        createdBy: adminKey.stored.ownerUserId,
      });
      const { items } = modelPriceListJsonSchema.parse(
        (await test.request({ method: 'GET', url: '/v1/admin/model-prices', key: adminKey.key })).json(),
      );
      expect(
        items
          .filter((price) => price.model === 'gpt-4o')
          .map((price) => [price.inputUsdPerMillion, price.current]),
      ).toEqual([
        ['2.000001', false],
        ['2.50', true],
      ]);
      const audit = await test.api.repositories.audit.list({ action: 'admin.model-price.add' }, {});
      expect(audit.items).toHaveLength(1);
      expect(audit.items[0]).toMatchObject({
        actorPrincipalId: adminKey.stored.ownerUserId,
        outcome: 'succeeded',
        target: { kind: 'model-price', id: added.json<{ id: string }>().id },
        details: expect.objectContaining({
          model: 'gpt-4o',
          inputMicrosPerMillion: 2_000_001,
          effectiveFrom: future,
        }),
      });

      const refusals: Array<[object, string]> = [
        [{ ...gptTestPrice, inputUsdPerMillion: '1,50' }, 'body.inputUsdPerMillion'],
        [{ ...gptTestPrice, outputUsdPerMillion: '0.0000001' }, 'body.outputUsdPerMillion'],
        [{ ...gptTestPrice, provider: 'mistral' }, 'body.provider'],
        [{ ...gptTestPrice, model: ' ' }, 'body.model'],
        [{ ...gptTestPrice, colour: 'red' }, 'colour'],
        [{ ...gptTestPrice, effectiveFrom: '2025-12-31T23:59:59Z' }, 'body.effectiveFrom'],
        [{ ...gptTestPrice, effectiveFrom: 'tomorrow' }, 'body.effectiveFrom'],
      ];
      for (const [body, field] of refusals) {
        const refused = await addPrice(body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(400);
        expect(refused.body).toContain(field);
      }
      // One version per model and instant.
      expect((await addPrice({ ...gptTestPrice, model: 'gpt-4o', effectiveFrom: future })).statusCode).toBe(
        409,
      );
      const refusedRecords = await test.api.repositories.audit.list({ action: 'admin.model-price.add' }, {});
      expect(refusedRecords.items.filter((entry) => entry.outcome === 'refused')).toHaveLength(
        refusals.length + 1,
      );
    });

    it('a turn’s answer costs what the price in effect says, on the event, the session and the report; a later price changes nothing', async () => {
      expect((await addPrice(gptTestPrice)).statusCode).toBe(201);
      test.emulator.script({ kind: 'text', text: 'Hi', usage: { inputTokens: 1_000, outputTokens: 100 } });
      const session = await createSession(test.api.repositories, alice, 'priced');
      await turn(session.id);
      await test.api.app.get(UsageMeter).flush();
      // 1000 × $2.50/M + 100 × $10/M = $0.0035
      const [event] = await test.database.database.db
        .selectFrom('usage_events')
        .select(['cost_micros', 'price_id'])
        .execute();
      expect(Number(event!.cost_micros)).toBe(3_500);
      expect(event!.price_id).not.toBeNull();
      test.database.clock.advance(1_000);
      expect((await addPrice({ ...gptTestPrice, inputUsdPerMillion: '100' })).statusCode).toBe(201);
      const read = await test.request({
        method: 'GET',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
      });
      expect(sessionJsonSchema.parse(read.json())).toMatchObject({
        costMicros: 3_500,
        pricedCostMicros: 3_500,
        unpricedCalls: 0,
      });
      const byModel = await report('groupBy=model');
      expect(byModel.totals).toEqual([
        expect.objectContaining({
          key: 'gpt-test',
          costMicros: 3_500,
          pricedCostMicros: 3_500,
          unpricedCalls: 0,
        }),
      ]);
    });

    it('a model without a price has an unknown cost — null and counted — never 0; the lab run carries each target’s cost', async () => {
      test.emulator.script({ kind: 'text', text: 'Hi', usage: { inputTokens: 10, outputTokens: 1 } });
      const session = await test.api.repositories.sessions.create({
        ownerUserId: alice.id,
        label: 'unpriced',
        model: 'claude-test',
      });
      await turn(session.id);
      expect(
        (await addPrice({ ...gptTestPrice, inputUsdPerMillion: '1', outputUsdPerMillion: '1' })).statusCode,
      ).toBe(201);
      const lab = await test.request({
        method: 'POST',
        url: '/v1/admin/structured-output/runs',
        key: adminKey.key,
        body: {
          name: 'costed',
          schema: labSchema,
          prompt: 'Title?',
          targets: [{ model: 'gpt-test' }, { model: 'gemini-test' }],
        },
      });
      expect(lab.statusCode, lab.body).toBe(201);
      const run = runJsonSchema.parse(lab.json());
      const costs = Object.fromEntries(run.results.map((result) => [result.model, result.costMicros]));
      expect(costs['gemini-test']).toBeNull();
      expect(typeof costs['gpt-test']).toBe('number');
      await test.api.app.get(UsageMeter).flush();

      const read = await test.request({
        method: 'GET',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
      });
      expect(sessionJsonSchema.parse(read.json())).toMatchObject({
        costMicros: null,
        pricedCostMicros: 0,
        unpricedCalls: 1,
      });
      const byProvider = await report('groupBy=provider');
      expect(
        byProvider.totals.map((total) => [total.key, total.costMicros, total.unpricedCalls]).sort(),
      ).toEqual([
        ['anthropic', null, 1],
        ['gemini', null, 1],
        ['openai', costs['gpt-test'], 0],
      ]);
    });
  });
}
