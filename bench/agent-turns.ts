/**
 * Agent turns (`POST /v1/sessions/:id/messages`, JSON) against the real API process, beside the model
 * call alone (the same `openai` SDK straight to the same emulator), on SQLite and on PostgreSQL:
 *
 *   npx tsx bench/agent-turns.ts          (or: npm run bench -- agent-turns)
 *
 * Processes: the provider emulator, then per engine one API process (`apps/api/src/main.ts`, a fresh
 * SQLite file or a fresh PostgreSQL database, providers pointed at the emulator); this process is the client.
 *
 * Phases per engine:
 *   1. growth, one request at a time: the first turn of BENCH_FRESH_SESSIONS fresh sessions ("turn 1")
 *      and, in BENCH_LONG_SESSIONS sessions driven to BENCH_LONG_TURNS turns each, the last
 *      BENCH_WINDOW turns ("turn 500"): p50/p99 of each and their ratio (target ≤ 1.5×);
 *   2. throughput: BENCH_CONCURRENCY turns in flight, each worker on its own sessions (one turn at a
 *      time per session is the API's rule), for BENCH_THROUGHPUT_ROUNDS × BENCH_ROUND_MS.
 * The model call alone is measured first, one at a time and at the same concurrency.
 * Targets: turn 500 ≤ 1.5× turn 1 (p50); ≥ 800 turns/s on SQLite and ≥ 500 on PostgreSQL.
 *
 * Options (environment): BENCH_FRESH_SESSIONS (100), BENCH_LONG_SESSIONS (2), BENCH_LONG_TURNS (500),
 * BENCH_WINDOW (40), BENCH_CONCURRENCY (16), BENCH_THROUGHPUT_SESSIONS (64), BENCH_THROUGHPUT_ROUNDS (2),
 * BENCH_ROUND_MS (3000), BENCH_ENGINES (sqlite,postgres), BENCH_POSTGRES_URL
 * (postgres://postgres@127.0.0.1:5432/test), BENCH_PROFILE=1 (run the API under `node --cpu-prof`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import pg from 'pg';
import { startApiProcess, type ApiProcess } from './support/api-process';
import { formatSummary, profileIn, summarizeProfile } from './support/cpu-profile';
import { startEmulatorProcess } from './support/emulator-process';
import { percentile } from './support/measure';
import { processCpuMicroseconds } from './support/server-process';

const freshSessions = Number(process.env['BENCH_FRESH_SESSIONS'] ?? 100);
const longSessions = Number(process.env['BENCH_LONG_SESSIONS'] ?? 2);
const longTurns = Number(process.env['BENCH_LONG_TURNS'] ?? 500);
const windowTurns = Number(process.env['BENCH_WINDOW'] ?? 40);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const throughputSessions = Number(process.env['BENCH_THROUGHPUT_SESSIONS'] ?? 64);
const throughputRounds = Number(process.env['BENCH_THROUGHPUT_ROUNDS'] ?? 2);
const roundMs = Number(process.env['BENCH_ROUND_MS'] ?? 3000);
const engines = (process.env['BENCH_ENGINES'] ?? 'sqlite,postgres').split(',') as Array<
  'sqlite' | 'postgres'
>;
const postgresServerUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const profiling = process.env['BENCH_PROFILE'] === '1';

const model = 'gpt-test';
/** A user message of a realistic size (~40 tokens); the emulator answers its short default text. */
const userText =
  'Please look at the order history of customer 4711 and tell me, in two sentences, whether the ' +
  'late deliveries of last month were caused by the warehouse or by the carrier.';

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '—');
const p = percentile;

interface Client {
  readonly url: string;
  readonly key: string;
}

async function post(client: Client, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${client.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

async function newSession(client: Client): Promise<string> {
  const session = (await post(client, '/v1/sessions', { label: 'bench' })) as { id: string };
  return session.id;
}

/** One turn; returns its latency in ms and checks the answer (a turn that failed is no measurement). */
async function turn(client: Client, sessionId: string): Promise<number> {
  const started = performance.now();
  const result = (await post(client, `/v1/sessions/${sessionId}/messages`, { content: userText })) as {
    status: string;
    text: string;
  };
  const elapsed = performance.now() - started;
  if (result.status !== 'complete') throw new Error(`turn ended ${result.status}`);
  return elapsed;
}

interface Throughput {
  completed: number;
  seconds: number;
  latencies: number[];
  serverCpuMicroseconds: number;
}

/** `concurrency` workers for `durationMs`; worker i owns every concurrency-th session, so no two share one. */
async function load(
  durationMs: number,
  call: (worker: number, iteration: number) => Promise<unknown>,
): Promise<{ completed: number; seconds: number; latencies: number[] }> {
  const started = performance.now();
  const end = started + durationMs;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let iteration = 0; performance.now() < end; iteration++) {
        const sent = performance.now();
        await call(worker, iteration);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return { completed: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

async function measureModelAlone(
  emulatorUrl: string,
): Promise<{ latencies: number[]; throughput: Throughput }> {
  const sdk = new OpenAI({ apiKey: 'sk-emulator', baseURL: `${emulatorUrl}/v1`, maxRetries: 0 });
  const once = () => sdk.chat.completions.create({ model, messages: [{ role: 'user', content: userText }] });
  for (let index = 0; index < 200; index++) await once();
  const latencies: number[] = [];
  for (let index = 0; index < 500; index++) {
    const started = performance.now();
    await once();
    latencies.push(performance.now() - started);
  }
  await load(500, once);
  const result = await load(roundMs, once);
  return { latencies, throughput: { ...result, serverCpuMicroseconds: 0 } };
}

interface EngineResult {
  readonly engine: 'sqlite' | 'postgres';
  readonly firstTurns: number[];
  readonly lateTurns: number[];
  readonly throughput: Throughput;
  readonly profile?: string;
}

async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `agentdesk_bench_turns_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: postgresServerUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function measureEngine(engine: 'sqlite' | 'postgres', emulatorUrl: string): Promise<EngineResult> {
  const database = engine === 'postgres' ? await freshPostgresDatabase() : undefined;
  const profileDirectory = profiling ? mkdtempSync(join(tmpdir(), 'agentdesk-bench-turns-prof-')) : undefined;
  let api: ApiProcess | undefined;
  try {
    api = await startApiProcess(
      {
        OPENAI_API_KEY: 'sk-emulator',
        OPENAI_BASE_URL: `${emulatorUrl}/v1`,
        AGENTDESK_DEFAULT_MODEL: model,
        ...(database && { DATABASE_URL: database.url }),
      },
      profileDirectory ? { cpuProfileDirectory: profileDirectory } : {},
    );
    const client: Client = { url: api.url, key: api.adminKey };

    // Warm-up: compile paths, fill caches, on sessions not measured.
    const warmSession = await newSession(client);
    for (let index = 0; index < 100; index++) await turn(client, warmSession);

    // 1. Growth: turn 1 of fresh sessions, and the last window of long sessions.
    const firstTurns: number[] = [];
    for (let index = 0; index < freshSessions; index++)
      firstTurns.push(await turn(client, await newSession(client)));
    const lateTurns: number[] = [];
    for (let index = 0; index < longSessions; index++) {
      const sessionId = await newSession(client);
      for (let turnNumber = 1; turnNumber <= longTurns; turnNumber++) {
        const latency = await turn(client, sessionId);
        if (turnNumber > longTurns - windowTurns) lateTurns.push(latency);
      }
    }

    // 2. Throughput over many sessions.
    const sessions: string[] = [];
    for (let index = 0; index < throughputSessions; index++) sessions.push(await newSession(client));
    const perWorker = Math.max(1, Math.floor(throughputSessions / concurrency));
    const call = (worker: number, iteration: number) =>
      turn(client, sessions[(worker + concurrency * (iteration % perWorker)) % sessions.length]!);
    await load(500, call);
    const throughput: Throughput = { completed: 0, seconds: 0, latencies: [], serverCpuMicroseconds: 0 };
    for (let round = 0; round < throughputRounds; round++) {
      const cpuBefore = processCpuMicroseconds(api.pid);
      const result = await load(roundMs, call);
      throughput.serverCpuMicroseconds += processCpuMicroseconds(api.pid) - cpuBefore;
      throughput.completed += result.completed;
      throughput.seconds += result.seconds;
      throughput.latencies.push(...result.latencies);
    }
    await api.stop();
    api = undefined;
    let profile: string | undefined;
    if (profileDirectory) {
      const file = profileIn(profileDirectory);
      profile = file
        ? formatSummary(
            `API process on ${engine} (from its first turn)`,
            summarizeProfile(file, { from: /^send / }),
          )
        : 'no profile was written';
      rmSync(profileDirectory, { recursive: true, force: true });
    }
    return { engine, firstTurns, lateTurns, throughput, ...(profile !== undefined && { profile }) };
  } finally {
    await api?.stop();
    await database?.drop();
  }
}

async function main(): Promise<void> {
  const emulator = await startEmulatorProcess();
  const lines: string[] = [];
  try {
    const alone = await measureModelAlone(emulator.url);
    const results: EngineResult[] = [];
    for (const engine of engines) results.push(await measureEngine(engine, emulator.url));

    lines.push(
      `Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' / ')} at the end; emulator, API and this client share the CPUs.`,
      '',
      `### One at a time: turn 1 (first turn of ${freshSessions} fresh sessions) vs turn ${longTurns} (turns ${longTurns - windowTurns + 1}–${longTurns} of ${longSessions} sessions)`,
      '',
      '| path | samples | p50 ms | p99 ms | vs turn 1 (p50) |',
      '|---|---:|---:|---:|---:|',
      `| model call alone (SDK → emulator) | ${alone.latencies.length} | ${ms(p(alone.latencies, 0.5))} | ${ms(p(alone.latencies, 0.99))} | — |`,
    );
    for (const result of results) {
      const first = p(result.firstTurns, 0.5);
      lines.push(
        `| turn 1, ${result.engine} | ${result.firstTurns.length} | ${ms(first)} | ${ms(p(result.firstTurns, 0.99))} | 1.00× |`,
        `| turn ${longTurns}, ${result.engine} | ${result.lateTurns.length} | ${ms(p(result.lateTurns, 0.5))} | ${ms(p(result.lateTurns, 0.99))} | ${(p(result.lateTurns, 0.5) / first).toFixed(2)}× |`,
      );
    }
    lines.push(
      '',
      `### Throughput, ${concurrency} in flight (${throughputRounds} × ${roundMs} ms; turns over ${throughputSessions} sessions)`,
      '',
      '| path | calls | per second | p50 ms | p99 ms | API CPU µs per turn |',
      '|---|---:|---:|---:|---:|---:|',
      `| model call alone | ${alone.throughput.completed} | ${(alone.throughput.completed / alone.throughput.seconds).toFixed(0)} | ${ms(p(alone.throughput.latencies, 0.5))} | ${ms(p(alone.throughput.latencies, 0.99))} | — |`,
    );
    for (const result of results) {
      const { throughput } = result;
      lines.push(
        `| turns, ${result.engine} | ${throughput.completed} | ${(throughput.completed / throughput.seconds).toFixed(0)} | ${ms(p(throughput.latencies, 0.5))} | ${ms(p(throughput.latencies, 0.99))} | ${(throughput.serverCpuMicroseconds / throughput.completed).toFixed(0)} |`,
      );
    }
    const check = (met: boolean) => (met ? 'met' : '**missed**');
    lines.push('', '### Targets', '', '| target | measured | |', '|---|---:|---|');
    for (const result of results) {
      const ratio = p(result.lateTurns, 0.5) / p(result.firstTurns, 0.5);
      const perSecond = result.throughput.completed / result.throughput.seconds;
      const floor = result.engine === 'sqlite' ? 800 : 500;
      lines.push(
        `| ${result.engine}: turn ${longTurns} p50 ≤ 1.5× turn 1 p50 | ${ratio.toFixed(2)}× | ${check(ratio <= 1.5)} |`,
        `| ${result.engine}: ≥ ${floor} turns/s at ${concurrency} in flight | ${perSecond.toFixed(0)} | ${check(perSecond >= floor)} |`,
      );
    }
    for (const result of results) if (result.profile) lines.push('', result.profile);
    console.log(lines.join('\n'));
  } finally {
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
