/**
 * `npm run bench -- exports`: the streamed usage export (`GET /v1/admin/exports/usage`, CSV) of
 * 100,000 and 1,000,000 metered calls, through the real API process over HTTP, on SQLite and
 * PostgreSQL. Reports rows/s (first byte to last, client reading as fast as it can) and the API
 * process's resident memory (VmRSS, sampled every 20 ms) at the start of the export and at its peak:
 * flat memory means the growth does not scale with the rows (the 1M run grows about as much as the
 * 100k one). Target (issue 20): ≥ 50,000 rows/s with flat memory.
 *
 * Seeds once per size and engine (`data/bench/exports-<rows>.db`, PostgreSQL database
 * `agentdesk_bench_exports_<rows>`); `--reseed` rebuilds. Environment: BENCH_POSTGRES_URL (server,
 * default postgres://postgres@127.0.0.1:5432/test), BENCH_ENGINES (default sqlite,postgres),
 * BENCH_EXPORT_SIZES (default 100000,1000000), BENCH_EXPORT_HEAP_MB (default 160: the API runs with
 * `--max-old-space-size=<it>`, so a run that completes proves the export's heap is bounded whatever
 * the RSS shows; 0 leaves V8's default). Every 2 s during the export the API is asked for a full GC
 * and the heap still in use (`support/heap-after-gc.mjs`): retained memory, not collectable garbage.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { AppDatabase, Database } from '@agentdesk/storage';
import { startApiProcess, type ApiProcess } from './support/api-process';
import { openSeededPostgres, openSeededSqlite } from './support/seeded-database';

const engines = (process.env['BENCH_ENGINES'] ?? 'sqlite,postgres').split(',');
const sizes = (process.env['BENCH_EXPORT_SIZES'] ?? '100000,1000000').split(',').map(Number);
const serverUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const reseed = process.argv.includes('--reseed');
const heapCapMegabytes = Number(process.env['BENCH_EXPORT_HEAP_MB'] ?? '160');
const firstDay = Date.UTC(2026, 2, 1);
const models = ['gpt-5', 'gpt-4o', 'claude-sonnet-4', 'gemini-2.5-pro'];

/** One statement: `count` calls over 30 days (recursive CTE on SQLite, generate_series on PostgreSQL). */
async function seed(db: Kysely<Database>, engine: string, count: number): Promise<void> {
  const spacing = Math.floor((30 * 86_400_000) / count);
  const numbers =
    engine === 'sqlite'
      ? `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`
      : `with n(i) as (select generate_series(0, ${count - 1})::bigint)`;
  const hex = engine === 'sqlite' ? `printf('%012x', i)` : `lpad(to_hex(i), 12, '0')`;
  const at = `(${firstDay} + i * ${spacing})`;
  const day =
    engine === 'sqlite'
      ? `strftime('%Y-%m-%d', ${at} / 1000, 'unixepoch')`
      : `to_char(to_timestamp(${at} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`;
  const model = `case i % ${models.length} ${models.map((name, index) => `when ${index} then '${name}'`).join(' ')} end`;
  await sql
    .raw(
      `${numbers}
       insert into usage_events (id, occurred_at, day, source, model, provider, api_key_id, portal_id, end_user_id,
         input_tokens, output_tokens, thinking_tokens, cached_tokens, latency_ms, status, cost_micros, price_id)
       select '00000000-0000-7000-8000-' || ${hex}, ${at}, ${day}, 'chat-completion', ${model}, 'openai',
         'key-' || (i % 50), 'portal-' || (i % 10), 'user-' || (i % 2000), 100 + i % 900, 10 + i % 300, i % 7,
         i % 50, 200 + i % 800, 'ok', case when i % 5 = 0 then null else 1000 + i % 5000 end, null
       from n`,
    )
    .execute(db);
}

async function openSeeded(engine: string, count: number): Promise<{ database: AppDatabase; url: string }> {
  const plan = {
    version: `exports-v1:${count}`,
    reseed,
    seed: async (database: AppDatabase) => {
      await seed(database.db, engine, count);
      await sql.raw(engine === 'sqlite' ? 'analyze' : 'vacuum analyze').execute(database.db);
    },
  };
  if (engine === 'sqlite') {
    const file = `data/bench/exports-${count}.db`;
    return { database: await openSeededSqlite(file, plan), url: `sqlite:${file}` };
  }
  const name = `agentdesk_bench_exports_${count}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { database: await openSeededPostgres(serverUrl, name, plan), url: url.toString() };
}

/** Resident memory of a process in MB, from /proc. */
function residentMegabytes(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) / 1024;
}

interface Measurement {
  readonly engine: string;
  readonly rows: number;
  readonly seconds: number;
  readonly startRss: number;
  readonly peakRss: number;
  /** Heap in use after a full GC at the start, and the most seen after one during the export (MB). */
  readonly startHeap: number;
  readonly peakHeap: number;
}

const heapSamplerModule = pathToFileURL(join(import.meta.dirname, 'support', 'heap-after-gc.mjs')).href;

/** Asks the API for a full GC and the heap in use after it (MB); see `support/heap-after-gc.mjs`. */
async function heapAfterGc(api: ApiProcess): Promise<number> {
  const before = api.output().length;
  process.kill(api.pid, 'SIGUSR2');
  // The signal is handled between the export's chunks: on a busy machine that can take a while.
  for (let attempt = 0; attempt < 3000; attempt += 1) {
    const line = /heap-after-gc (\d+)/.exec(api.output().slice(before));
    if (line !== null) return Number(line[1]) / 1024 / 1024;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the API did not report its heap after a GC');
}

async function measure(engine: string, count: number): Promise<Measurement> {
  const seeded = await openSeeded(engine, count);
  await seeded.database.destroy();
  const api = await startApiProcess(
    { DATABASE_URL: seeded.url },
    {
      nodeArguments: [
        ...(heapCapMegabytes > 0 ? [`--max-old-space-size=${heapCapMegabytes}`] : []),
        '--expose-gc',
        '--import',
        heapSamplerModule,
      ],
    },
  );
  const timers: NodeJS.Timeout[] = [];
  try {
    const url = `${api.url}/v1/admin/exports/usage?from=2026-03-01&to=2026-03-30&format=csv`;
    const headers = { authorization: `Bearer ${api.adminKey}` };
    // A warm-up export of one day, so the first measured rows do not pay for the first query's planning.
    await (await fetch(`${url.replace('to=2026-03-30', 'to=2026-03-01')}`, { headers })).text();
    const startHeap = await heapAfterGc(api);
    let peakHeap = startHeap;
    const startRss = residentMegabytes(api.pid);
    let peakRss = startRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, residentMegabytes(api.pid));
    }, 20);
    timers.push(sampler);
    // A forced GC every 2 s while the rows stream: what stays is what the export holds on to.
    let heapSampling = Promise.resolve();
    const heapSampler = setInterval(() => {
      heapSampling = heapSampling.then(async () => {
        peakHeap = Math.max(peakHeap, await heapAfterGc(api));
      });
    }, 2000);
    timers.push(heapSampler);
    const started = performance.now();
    const response = await fetch(url, { headers });
    if (response.status !== 200 || response.body === null)
      throw new Error(`export answered ${response.status}: ${api.output().slice(-2000)}`);
    let newlines = 0;
    try {
      for await (const chunk of response.body) {
        const bytes = chunk as Uint8Array;
        for (let index = 0; index < bytes.length; index += 1) if (bytes[index] === 10) newlines += 1;
      }
    } catch (error) {
      // A cut transfer: the API's own words (an out-of-memory crash, a failure mid-stream) say why.
      throw new Error(
        `the export stopped after ${newlines} lines (API output: ${api.output().slice(-3000)})`,
        {
          cause: error,
        },
      );
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    clearInterval(heapSampler);
    await heapSampling;
    peakRss = Math.max(peakRss, residentMegabytes(api.pid));
    const rows = newlines - 1;
    if (rows !== count)
      throw new Error(`exported ${rows} rows, seeded ${count} (API output: ${api.output().slice(-2000)})`);
    return { engine, rows, seconds, startRss, peakRss, startHeap, peakHeap };
  } finally {
    for (const timer of timers) clearInterval(timer);
    await api.stop();
  }
}

const results: Measurement[] = [];
for (const engine of engines) {
  for (const count of sizes) {
    const result = await measure(engine, count);
    results.push(result);
    console.log(
      `${engine} ${count.toLocaleString('en')} rows: ${(result.rows / result.seconds).toFixed(0)} rows/s ` +
        `(${result.seconds.toFixed(2)} s); API RSS ${result.startRss.toFixed(0)} MB at start, ` +
        `${result.peakRss.toFixed(0)} MB peak (+${(result.peakRss - result.startRss).toFixed(0)} MB); ` +
        `heap after GC ${result.startHeap.toFixed(1)} MB at start, ${result.peakHeap.toFixed(1)} MB peak`,
    );
  }
}
console.log(`\n${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})`);
console.log(
  heapCapMegabytes > 0 ? `API heap capped: --max-old-space-size=${heapCapMegabytes}` : 'API heap: V8 default',
);
console.log(
  '| Engine | Rows | Rows/s | Seconds | RSS at start (MB) | Peak RSS (MB) | Growth (MB) | Heap after GC at start (MB) | Peak heap after GC (MB) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const result of results) {
  console.log(
    `| ${result.engine} | ${result.rows.toLocaleString('en')} | ${(result.rows / result.seconds).toFixed(0)} | ` +
      `${result.seconds.toFixed(2)} | ${result.startRss.toFixed(0)} | ${result.peakRss.toFixed(0)} | ` +
      `${(result.peakRss - result.startRss).toFixed(0)} | ${result.startHeap.toFixed(1)} | ${result.peakHeap.toFixed(1)} |`,
  );
}
