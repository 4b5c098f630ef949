import { sql } from 'kysely';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sqliteTestDatabase, type TestDatabase } from '@agentdesk/storage/testing';
import { agentTurnOrigin } from './call-origins';
import { PriceBook } from './price-book';
import { UsageMeter } from './usage-meter';
import { UsageMeterMetrics } from './usage-meter-metrics';
import type { UsageMeterSettings } from '../../config/usage-meter-settings';

const origin = agentTurnOrigin({
  model: 'gpt-test',
  provider: 'openai',
  apiKeyId: 'k-1',
  portalId: null,
  ownerUserId: 'u-alice',
});
const tokens = (inputTokens: number) => ({
  inputTokens,
  outputTokens: 1,
  thinkingTokens: 0,
  cachedInputTokens: 0,
});

describe('UsageMeter over a real SQLite database', () => {
  let database: TestDatabase;
  let metrics: UsageMeterMetrics;
  let meter: UsageMeter;

  function createMeter(settings: Partial<UsageMeterSettings> = {}): UsageMeter {
    metrics = new UsageMeterMetrics(new Registry());
    return new UsageMeter({
      usage: database.repositories.usage,
      users: database.repositories.users,
      prices: new PriceBook({
        modelPrices: database.repositories.modelPrices,
        now: () => database.repositories.usage.now(),
        logger: pino({ level: 'silent' }),
      }),
      devUserId: null,
      // An interval no test waits for: writes happen on a full batch or an explicit flush.
      settings: { flushIntervalMs: 60_000, batchSize: 100, maxBufferedEvents: 1000, ...settings },
      logger: pino({ level: 'silent' }),
      metrics,
    });
  }
  const storedInputs = async () =>
    (
      await database.database.db.selectFrom('usage_events').select('input_tokens').orderBy('id').execute()
    ).map((row) => Number(row.input_tokens));
  // A real write failure: the table is away while the meter writes.
  const takeTableAway = () =>
    sql`alter table usage_events rename to usage_events_away`.execute(database.database.db);
  const bringTableBack = () =>
    sql`alter table usage_events_away rename to usage_events`.execute(database.database.db);
  const counted = async (counter: { get(): Promise<{ values: { value: number; labels: object }[] }> }) =>
    (await counter.get()).values.reduce((sum, sample) => sum + sample.value, 0);

  beforeEach(async () => {
    database = await sqliteTestDatabase();
  });
  afterEach(async () => {
    await database.cleanup();
  });

  it('record only buffers; a full batch is written at once, without waiting for the interval', async () => {
    meter = createMeter({ batchSize: 3 });
    meter.record(origin, 'ok', tokens(1), 5);
    meter.record(origin, 'ok', tokens(2), 5);
    expect(meter.buffered).toBe(2);
    expect(await storedInputs()).toEqual([]);
    meter.record(origin, 'ok', tokens(3), 5);
    await vi.waitFor(async () => expect(await storedInputs()).toEqual([1, 2, 3]));
    expect(meter.buffered).toBe(0);
    expect(await counted(metrics.written)).toBe(3);
  });

  it('costs each call with the price in effect when it was made; a model without a price costs null', async () => {
    meter = createMeter();
    const priced = { ...origin, model: 'gpt-4o-mini' };
    meter.record(
      priced,
      'ok',
      { inputTokens: 1_000_000, outputTokens: 1_000_000, thinkingTokens: 0, cachedInputTokens: 400_000 },
      5,
    );
    meter.record(origin, 'ok', tokens(10), 5);
    // A price taking effect after the calls were made does not apply to them, even written later.
    database.clock.advance(1_000);
    await database.repositories.modelPrices.add({
      model: 'gpt-4o-mini',
      provider: 'openai',
      inputMicrosPerMillion: 1,
      cachedInputMicrosPerMillion: 1,
      outputMicrosPerMillion: 1,
      thinkingMicrosPerMillion: 1,
      effectiveFrom: database.repositories.usage.now(),
      createdBy: 'u-admin',
    });
    await meter.flush();
    const rows = await database.database.db
      .selectFrom('usage_events')
      .select(['model', 'cost_micros', 'price_id'])
      .orderBy('id')
      .execute();
    // 600k uncached × $0.15/M + 400k cached × $0.075/M + 1M output × $0.60/M = $0.72
    expect(rows).toEqual([
      { model: 'gpt-4o-mini', cost_micros: 720_000, price_id: 'seed-gpt-4o-mini' },
      { model: 'gpt-test', cost_micros: null, price_id: null },
    ]);
  });

  it('keeps a batch the database refused and writes it exactly once when the database is back', async () => {
    meter = createMeter();
    await takeTableAway();
    for (let input = 1; input <= 5; input++) meter.record(origin, 'ok', tokens(input), 5);
    await expect(meter.flush()).rejects.toThrow();
    await expect(meter.flush()).rejects.toThrow();
    expect(meter.buffered).toBe(5);
    expect(await counted(metrics.writeFailures)).toBe(2);
    await bringTableBack();
    meter.record(origin, 'ok', tokens(6), 5);
    await meter.flush();
    expect(await storedInputs()).toEqual([1, 2, 3, 4, 5, 6]);
    await meter.flush();
    expect(await storedInputs()).toHaveLength(6);
    expect(await counted(metrics.dropped)).toBe(0);
  });

  it('drops the oldest calls beyond the cap while the database is down, and counts them', async () => {
    meter = createMeter({ maxBufferedEvents: 4 });
    await takeTableAway();
    for (let input = 1; input <= 7; input++) meter.record(origin, 'ok', tokens(input), 5);
    await expect(meter.flush()).rejects.toThrow();
    expect(meter.buffered).toBe(4);
    expect((await metrics.dropped.get()).values).toEqual([
      expect.objectContaining({ labels: { reason: 'buffer-full' }, value: 3 }),
    ]);
    await bringTableBack();
    await meter.flush();
    expect(await storedInputs()).toEqual([4, 5, 6, 7]);
  });

  it('writes what is buffered at shutdown, and counts what it cannot write as lost', async () => {
    meter = createMeter();
    meter.record(origin, 'ok', tokens(1), 5);
    await meter.onApplicationShutdown();
    expect(await storedInputs()).toEqual([1]);
    // A request still in flight at shutdown ends later: its call is written at once, not after the interval.
    meter.record(origin, 'ok', tokens(9), 5);
    await vi.waitFor(async () => expect(await storedInputs()).toEqual([1, 9]));

    await takeTableAway();
    meter.record(origin, 'failed', tokens(0), 5);
    meter.record(origin, 'ok', tokens(2), 5);
    await meter.onApplicationShutdown();
    expect(meter.buffered).toBe(0);
    expect((await metrics.dropped.get()).values).toEqual([
      expect.objectContaining({ labels: { reason: 'shutdown' }, value: 2 }),
    ]);
  });
});
