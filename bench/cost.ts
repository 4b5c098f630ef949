/**
 * What costing one model call adds: `PriceTable.costOf`, which the API's `PriceBook` calls (the price
 * table in memory, the version in
 * effect at the call's time, integer micro-dollars) for a model with a price and one without,
 * in alternating rounds in this process:
 *
 *   npx tsx bench/cost.ts            (or: npm run bench -- cost)
 *
 * An agent turn costs each answer twice (for the session's totals, and when its usage event is
 * written); compare with the API's CPU per turn of `bench/agent-turns.ts` (≈ 2–3.5 ms).
 * Options (environment): BENCH_ROUNDS (10), BENCH_CALLS (500000 per round and variant).
 */
import { cpus, loadavg } from 'node:os';
import { PriceTable } from '@agentdesk/storage';
import { sqliteTestDatabase } from '@agentdesk/storage/testing';
import { percentile } from './support/measure';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 10);
const calls = Number(process.env['BENCH_CALLS'] ?? 500_000);

// The seeded price table, as the API's price book holds it (`PriceBook` wraps a `PriceTable`).
const database = await sqliteTestDatabase();
const book = new PriceTable(await database.repositories.modelPrices.list());
const usage = { input: 1_234, output: 321, thinking: 17, cached: 512 };
let checksum = 0;

/** Nanoseconds per `costOf` over `count` calls of one model. */
function nanosecondsPerCall(model: string, count: number): number {
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index++)
    checksum += book.costOf(model, usage, 1_767_225_600_000 + index).costMicros ?? 1;
  return Number(process.hrtime.bigint() - started) / count;
}

// Both variants must answer as the table says before anything is timed.
const expected = book.costOf('gpt-4o-mini', usage, Date.now()).costMicros;
if (expected !== 350 || book.costOf('gpt-test', usage, Date.now()).costMicros !== null)
  throw new Error(
    `unexpected costs: ${expected}, ${String(book.costOf('gpt-test', usage, Date.now()).costMicros)}`,
  );
for (let round = 0; round < 3; round++) {
  nanosecondsPerCall('gpt-4o-mini', calls / 5);
  nanosecondsPerCall('gpt-test', calls / 5);
}
const priced: number[] = [];
const unpriced: number[] = [];
for (let round = 0; round < rounds; round++) {
  priced.push(nanosecondsPerCall('gpt-4o-mini', calls));
  unpriced.push(nanosecondsPerCall('gpt-test', calls));
}
console.log(
  `Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
console.log(`| variant | ns per call, p50 of ${rounds} rounds | p90 |`);
console.log('|---|---:|---:|');
console.log(
  `| model with a price (gpt-4o-mini) | ${percentile(priced, 0.5).toFixed(0)} | ${percentile(priced, 0.9).toFixed(0)} |`,
);
console.log(
  `| model without a price (gpt-test) | ${percentile(unpriced, 0.5).toFixed(0)} | ${percentile(unpriced, 0.9).toFixed(0)} |`,
);
if (checksum === 0) console.log('(checksum 0)');
await database.cleanup();
