/**
 * The admin usage report over 1M metered model calls (`usage_events`) for a 30-day range, on
 * SQLite (file, WAL) and PostgreSQL, beside the same report summed from the events themselves (the
 * baseline: what the daily totals of migration 0008 buy). Also the batch writer's throughput,
 * first writes and replays of the same batches.
 *
 *   npm run bench -- usage            # print the table
 *   npx tsx bench/usage.ts --write    # also update docs/benchmarks/usage.md
 *
 * Seeds once and reuses the seeded databases (`data/bench/usage.db`, PostgreSQL database
 * `agentdesk_bench_usage`); `--reseed` forces a fresh seed. Environment: BENCH_POSTGRES_URL
 * (server, default postgres://postgres@127.0.0.1:5432/test), BENCH_USAGE_EVENTS (default 1000000),
 * BENCH_RUNS (default 20), BENCH_ENGINES (default sqlite,postgres).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import {
  createRepositories,
  newId,
  type AppDatabase,
  type Database,
  type UsageGroupColumn,
} from '@agentdesk/storage';
import { openSeededPostgres, openSeededSqlite } from './support/seeded-database';

const eventCount = Number(process.env['BENCH_USAGE_EVENTS'] ?? 1_000_000);
const runs = Number(process.env['BENCH_RUNS'] ?? 20);
const warmupRuns = 3;
const engines = (process.env['BENCH_ENGINES'] ?? 'sqlite,postgres').split(',');
const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const postgresDatabaseName = 'agentdesk_bench_usage';
const sqliteFile = 'data/bench/usage.db';
const documentPath = 'docs/benchmarks/usage.md';
const reseed = process.argv.includes('--reseed');
const writeDocument = process.argv.includes('--write');

// Every event falls in the 30 days measured (the worst case for the range): 2026-03-01..30.
const firstDay = Date.UTC(2026, 2, 1);
const dayCount = 30;
const spacingMilliseconds = Math.floor((dayCount * 86_400_000) / eventCount);
const models = [
  'gpt-5',
  'gpt-5-mini',
  'gpt-4o',
  'claude-sonnet-4',
  'claude-haiku-4',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'llama-3',
];
const userCount = 2_000;
const portalCount = 10;
const seedVersion = `v3:${eventCount}`;
const range = { fromDay: '2026-03-01', toDay: '2026-03-30' };

const groupColumns: Record<UsageGroupColumn, string> = {
  model: 'model',
  provider: 'provider',
  portal: 'portal_id',
  user: 'end_user_id',
};

interface SeedDialect {
  numbers(count: number): string;
  hex(expression: string, width: number): string;
  day(milliseconds: string): string;
}

const sqliteSeed: SeedDialect = {
  numbers: (count) =>
    `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`,
  hex: (expression, width) => `printf('%0${width}x', ${expression})`,
  day: (milliseconds) => `strftime('%Y-%m-%d', ${milliseconds} / 1000, 'unixepoch')`,
};

const postgresSeed: SeedDialect = {
  numbers: (count) => `with n(i) as (select generate_series(0, ${count - 1})::bigint)`,
  hex: (expression, width) => `lpad(to_hex(${expression}), ${width}, '0')`,
  day: (milliseconds) => `to_char(to_timestamp(${milliseconds} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`,
};

/** One statement: 1M rows spread over the 30 days, models, providers, portals and users. */
async function seed(db: Kysely<Database>, dialect: SeedDialect): Promise<void> {
  const at = `(${firstDay} + i * ${spacingMilliseconds})`;
  const model = `case i % ${models.length} ${models.map((name, index) => `when ${index} then '${name}'`).join(' ')} end`;
  const provider = `case i % ${models.length} when 0 then 'openai' when 1 then 'openai' when 2 then 'openai' when 3 then 'anthropic' when 4 then 'anthropic' when 5 then 'gemini' when 6 then 'gemini' else null end`;
  const user = `((i * 7919) % ${userCount})`;
  await sql
    .raw(
      `${dialect.numbers(eventCount)}
       insert into usage_events (id, occurred_at, day, source, model, provider, api_key_id, portal_id, end_user_id,
         input_tokens, output_tokens, thinking_tokens, cached_tokens, latency_ms, status)
       select '00000000-0000-7000-8000-' || ${dialect.hex('i', 12)}, ${at}, ${dialect.day(at)},
         case i % 3 when 0 then 'chat-completion' when 1 then 'agent-turn' else 'lab-run' end,
         ${model}, ${provider}, 'key-' || (i % 50),
         case when ${user} % 4 = 0 then null else 'portal-' || (${user} % ${portalCount}) end,
         'user-' || ${user}, 100 + i % 900, 10 + i % 300, i % 7, i % 50, 200 + i % 800,
         case when i % 50 = 0 then 'failed' else 'ok' end
       from n`,
    )
    .execute(db);
  // The totals the batch writer keeps in step, built from the seeded events in one statement each.
  for (const [grouping, column] of Object.entries(groupColumns))
    await sql
      .raw(
        `insert into usage_daily_totals (grouping, day, group_key, input_tokens, output_tokens, thinking_tokens, cached_tokens, model_calls)
         select '${grouping}', day, coalesce(${column}, ''), sum(input_tokens), sum(output_tokens), sum(thinking_tokens), sum(cached_tokens), count(*)
         from usage_events group by day, coalesce(${column}, '')`,
      )
      .execute(db);
}

async function openSqlite(): Promise<AppDatabase> {
  return openSeededSqlite(sqliteFile, {
    version: seedVersion,
    reseed,
    seed: async (database) => {
      await seed(database.db, sqliteSeed);
      await sql`analyze`.execute(database.db);
    },
  });
}

async function openPostgres(): Promise<AppDatabase> {
  return openSeededPostgres(serverUrl, postgresDatabaseName, {
    version: seedVersion,
    reseed,
    seed: async (database) => {
      await seed(database.db, postgresSeed);
      // Index-only scans need the visibility map, as autovacuum would set it on a live table.
      await sql`vacuum analyze`.execute(database.db);
    },
  });
}

/**
 * The baseline: the same report summed from the events themselves (what a report without the kept
 * daily totals reads), every index of the table refused so both engines scan the range.
 */
async function scanningReport(database: AppDatabase, groupBy: UsageGroupColumn): Promise<number> {
  const column = sql.ref(groupColumns[groupBy]);
  const body = (from: ReturnType<typeof sql.raw>) => sql<{ day: string }>`
    select day, ${column} as key, sum(input_tokens), sum(output_tokens), sum(thinking_tokens), sum(cached_tokens), count(*)
    from ${from}
    where day >= ${range.fromDay} and day <= ${range.toDay}
    group by day, ${column} order by day, ${column}`;
  if (database.dialect === 'sqlite')
    return (await body(sql.raw('usage_events not indexed')).execute(database.db)).rows.length;
  return database.db.transaction().execute(async (transaction) => {
    await sql`set local enable_indexscan = off`.execute(transaction);
    await sql`set local enable_indexonlyscan = off`.execute(transaction);
    await sql`set local enable_bitmapscan = off`.execute(transaction);
    return (await body(sql.raw('usage_events')).execute(transaction)).rows.length;
  });
}

interface Result {
  readonly engine: string;
  readonly groupBy: UsageGroupColumn;
  readonly rows: number;
  readonly indexed: Timing;
  readonly scanning: Timing;
}

interface Timing {
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

function timing(durations: number[]): Timing {
  const sorted = [...durations].sort((left, right) => left - right);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

/** Interleaves the two variants run by run, so a burst of load from other processes hits both. */
async function measureGrouping(
  engine: string,
  database: AppDatabase,
  groupBy: UsageGroupColumn,
): Promise<Result> {
  const { usage } = createRepositories(database);
  let rows = 0;
  for (let run = 0; run < warmupRuns; run++) {
    rows = (await usage.dailyUsage(range, groupBy)).length;
    await scanningReport(database, groupBy);
  }
  const indexed: number[] = [];
  const scanning: number[] = [];
  for (let run = 0; run < runs; run++) {
    let started = performance.now();
    await usage.dailyUsage(range, groupBy);
    indexed.push(performance.now() - started);
    started = performance.now();
    await scanningReport(database, groupBy);
    scanning.push(performance.now() - started);
  }
  return { engine, groupBy, rows, indexed: timing(indexed), scanning: timing(scanning) };
}

async function reportPlan(database: AppDatabase): Promise<string> {
  const prefix = database.dialect === 'sqlite' ? 'explain query plan' : 'explain';
  const result = await sql
    .raw<Record<string, unknown>>(
      `${prefix} select day, group_key, input_tokens, model_calls from usage_daily_totals where grouping = 'model' and day >= '${range.fromDay}' and day <= '${range.toDay}' order by day, group_key`,
    )
    .execute(database.db);
  return result.rows.map((row) => String(row['detail'] ?? row['QUERY PLAN']).trim()).join(' / ');
}

interface WriterResult {
  readonly engine: string;
  readonly writtenPerSecond: number;
  readonly replayedPerSecond: number;
}

/**
 * The usage meter's writer path: `recordBatch` in batches of 500 (the default), then the same
 * batches again, as a writer retrying after a crash would (every row skipped by its id).
 */
async function measureWriter(engine: string, database: AppDatabase): Promise<WriterResult> {
  const { usage } = createRepositories(database);
  const calls = 50_000;
  const batchSize = 500;
  const occurredAt = Date.UTC(2026, 3, 1);
  const batches = Array.from({ length: calls / batchSize }, () =>
    Array.from({ length: batchSize }, () => ({
      id: newId(occurredAt),
      occurredAt,
      source: 'chat-completion' as const,
      model: 'gpt-5',
      provider: 'openai',
      apiKeyId: 'key-1',
      portalId: null,
      endUserId: 'user-1',
      inputTokens: 100,
      outputTokens: 20,
      thinkingTokens: 0,
      cachedTokens: 0,
      latencyMs: 250,
      status: 'ok' as const,
      // Costed as the meter does (100 × $1.25/M + 20 × $10/M, rounded): the totals sum it too.
      costMicros: 325,
      priceId: 'seed-gpt-5',
    })),
  );
  const rate = async (expectedPerBatch: number) => {
    const started = performance.now();
    for (const batch of batches) {
      const stored = await usage.recordBatch(batch);
      if (stored !== expectedPerBatch) throw new Error(`stored ${stored} of ${batch.length}`);
    }
    return calls / ((performance.now() - started) / 1000);
  };
  const writtenPerSecond = await rate(batchSize);
  const replayedPerSecond = await rate(0);
  // Only the benchmark's own rows: the seeded month stays for the next run.
  await database.db.deleteFrom('usage_events').where('day', '=', '2026-04-01').execute();
  await database.db.deleteFrom('usage_daily_totals').where('day', '=', '2026-04-01').execute();
  return { engine, writtenPerSecond, replayedPerSecond };
}

function tables(results: Result[], writers: WriterResult[]): string {
  const lines = [
    '| engine | groupBy | rows out | report p50 ms | report p95 ms | from events p50 ms | from events p95 ms | from events / report (p50) |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const result of results)
    lines.push(
      `| ${result.engine} | ${result.groupBy} | ${result.rows} | ${result.indexed.p50.toFixed(1)} | ${result.indexed.p95.toFixed(1)} | ${result.scanning.p50.toFixed(1)} | ${result.scanning.p95.toFixed(1)} | ${(result.scanning.p50 / result.indexed.p50).toFixed(2)}× |`,
    );
  lines.push(
    '',
    '| engine | batch writer: calls stored/s (batches of 500) | same batches replayed: calls skipped/s |',
    '|---|---:|---:|',
  );
  for (const writer of writers)
    lines.push(
      `| ${writer.engine} | ${Math.round(writer.writtenPerSecond).toLocaleString('en')} | ${Math.round(writer.replayedPerSecond).toLocaleString('en')} |`,
    );
  return lines.join('\n');
}

async function main(): Promise<void> {
  console.log(
    `${eventCount.toLocaleString('en')} usage events over ${dayCount} days; ${runs} timed runs after ${warmupRuns} warm-up runs`,
  );
  const results: Result[] = [];
  const writers: WriterResult[] = [];
  const plans: string[] = [];
  const openers = { sqlite: ['SQLite', openSqlite], postgres: ['PostgreSQL', openPostgres] } as const;
  for (const key of engines) {
    const [engine, open] = openers[key as keyof typeof openers];
    const database = await open();
    try {
      plans.push(`${engine}: ${await reportPlan(database)}`);
      for (const groupBy of ['model', 'provider', 'portal', 'user'] as const)
        results.push(await measureGrouping(engine, database, groupBy));
      writers.push(await measureWriter(engine, database));
    } finally {
      await database.destroy();
    }
  }
  const output = tables(results, writers);
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`\n${output}\n\n${plans.join('\n')}\nload average at the end: ${load}`);
  if (writeDocument && existsSync(documentPath)) {
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${load} (other helpers were running)`;
    const section = `<!-- results:start -->\n${machine}; ${eventCount.toLocaleString('en')} events, ${runs} runs after ${warmupRuns} warm-up.\n\n${output}\n\nReport plans (groupBy=model):\n\n${plans.map((plan) => `- ${plan}`).join('\n')}\n<!-- results:end -->`;
    writeFileSync(
      documentPath,
      readFileSync(documentPath, 'utf8').replace(
        /<!-- results:start -->[\s\S]*<!-- results:end -->/,
        section,
      ),
    );
    console.log(`updated ${documentPath}`);
  }
}

await main();
