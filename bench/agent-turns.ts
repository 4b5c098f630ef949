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
 *   1. growth, one request at a time: the first turn of fresh sessions ("turn 1") and, in
 *      BENCH_LONG_SESSIONS sessions driven to BENCH_LONG_TURNS turns each, the last BENCH_WINDOW
 *      turns ("turn 500"), interleaved in batches of BENCH_GROWTH_BATCH with the model call alone:
 *      p50/p99 of each, their ratio (target ≤ 1.5×) and the API process's CPU per turn;
 *   2. throughput: BENCH_CONCURRENCY turns in flight, each worker on its own sessions (one turn at a
 *      time per session is the API's rule), for BENCH_THROUGHPUT_ROUNDS × BENCH_ROUND_MS.
 * The model call alone at the same concurrency is measured first.
 * Targets: turn 500 ≤ 1.5× turn 1 (p50); ≥ 800 turns/s on SQLite and ≥ 500 on PostgreSQL.
 *
 * Options (environment): BENCH_GROWTH_BATCH (10), BENCH_LONG_SESSIONS (2), BENCH_LONG_TURNS (500),
 * BENCH_WINDOW (40), BENCH_CONCURRENCY (16), BENCH_THROUGHPUT_SESSIONS (64), BENCH_THROUGHPUT_ROUNDS (2),
 * BENCH_ROUND_MS (3000), BENCH_ENGINES (sqlite,postgres), BENCH_POSTGRES_URL
 * (postgres://postgres@127.0.0.1:5432/test), BENCH_PROFILE=1 (run the API under `node --cpu-prof`),
 * BENCH_HISTORY_CACHE=off (the API without its per-process history cache, to compare),
 * BENCH_MODEL (gpt-test; the emulator answers any name: gpt-4o-mini is one with a seeded price),
 * BENCH_BASELINE_TREE (a checkout of earlier code, its node_modules linked: each engine is measured
 * for that tree too, in the same run, rows marked "before").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import pg from 'pg';
import { startApiProcess, type ApiProcess } from './support/api-process';
import { formatSummary, profileIn, summarizeProfile } from './support/cpu-profile';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator-process';
import { percentile } from './support/measure';
import { processCpuMicroseconds } from './support/server-process';

const growthBatch = Number(process.env['BENCH_GROWTH_BATCH'] ?? 10);
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
const historyCacheOff = process.env['BENCH_HISTORY_CACHE'] === 'off';
const baselineTree = process.env['BENCH_BASELINE_TREE'];

// A model without a price by default; BENCH_MODEL=gpt-4o-mini has every call costed (a seeded price).
const model = process.env['BENCH_MODEL'] ?? 'gpt-test';
/** A user message of a realistic size (~40 tokens); the emulator answers its short default text. */
const userText =
  'Please look at the order history of customer 4711 and tell me, in two sentences, whether the ' +
  'late deliveries of last month were caused by the warehouse or by the carrier.';

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '—');
const p = percentile;

/** A chat request as the API sent it (recorded by the emulator). */
type ChatBody = OpenAI.ChatCompletionCreateParamsNonStreaming;

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

async function modelAloneThroughput(emulatorUrl: string): Promise<Throughput> {
  const sdk = new OpenAI({ apiKey: 'sk-emulator', baseURL: `${emulatorUrl}/v1`, maxRetries: 0 });
  const once = () => sdk.chat.completions.create({ model, messages: [{ role: 'user', content: userText }] });
  await load(500, once);
  const result = await load(roundMs * throughputRounds, once);
  return { ...result, serverCpuMicroseconds: 0 };
}

/** Latencies of one growth variant and the API process's CPU they took. */
interface Samples {
  latencies: number[];
  apiCpuMicroseconds: number;
}

interface EngineResult {
  readonly engine: 'sqlite' | 'postgres';
  /** The engine, and "before" for the baseline tree's run. */
  readonly label: string;
  /** Turn 1 of fresh sessions. */
  readonly first: Samples;
  /** The last window of the long sessions' turns. */
  readonly late: Samples;
  /** The model call alone, interleaved with the two. */
  readonly modelAlone: Samples;
  /** The model call alone with the exact request of a first turn, and of a late turn. */
  readonly modelFirstBody: Samples;
  readonly modelLateBody: Samples;
  /** Messages in the late turn's request. */
  readonly historyMessages: number;
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

async function measureEngine(
  engine: 'sqlite' | 'postgres',
  emulator: EmulatorProcess,
  tree?: string,
): Promise<EngineResult> {
  const emulatorUrl = emulator.url;
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
        // The per-process history cache, off to compare (BENCH_HISTORY_CACHE=off).
        ...(historyCacheOff && { AGENTDESK_HISTORY_CACHE_TOKENS: '0' }),
      },
      {
        ...(profileDirectory && { cpuProfileDirectory: profileDirectory }),
        ...(tree !== undefined && { tree }),
      },
    );
    const client: Client = { url: api.url, key: api.adminKey };

    // Warm-up: compile paths, fill caches, on sessions not measured.
    const warmSession = await newSession(client);
    for (let index = 0; index < 100; index++) await turn(client, warmSession);

    // 1. Growth. Long sessions are driven to the start of the window unmeasured; then, round by round
    //    in alternating order (so load from other processes hits all alike): a batch of first turns
    //    of fresh sessions, a batch of window turns of the long sessions, a batch of model calls alone.
    const longIds: string[] = [];
    for (let index = 0; index < longSessions; index++) {
      const sessionId = await newSession(client);
      for (let turnNumber = 1; turnNumber <= longTurns - windowTurns; turnNumber++)
        await turn(client, sessionId);
      longIds.push(sessionId);
    }
    // The exact requests a first turn and a late turn send the model, for "the model call alone with
    // the same request": what the API adds over it is the turn's own cost.
    await turn(client, await newSession(client));
    const firstBody = (await emulator.recordedRequests()).at(-1)!.body as ChatBody;
    const probe = await newSession(client);
    for (let turnNumber = 1; turnNumber <= longTurns - windowTurns; turnNumber++) await turn(client, probe);
    const lateBody = (await emulator.recordedRequests()).at(-1)!.body as ChatBody;
    const sdk = new OpenAI({ apiKey: 'sk-emulator', baseURL: `${emulatorUrl}/v1`, maxRetries: 0 });
    const first: Samples = { latencies: [], apiCpuMicroseconds: 0 };
    const late: Samples = { latencies: [], apiCpuMicroseconds: 0 };
    const modelAlone: Samples = { latencies: [], apiCpuMicroseconds: 0 };
    const modelFirstBody: Samples = { latencies: [], apiCpuMicroseconds: 0 };
    const modelLateBody: Samples = { latencies: [], apiCpuMicroseconds: 0 };
    const rounds = Math.ceil((windowTurns * longSessions) / growthBatch);
    let nextLong = 0;
    const phases: Array<{ into: Samples; prepare: () => Promise<Array<() => Promise<unknown>>> }> = [
      {
        into: first,
        prepare: async () => {
          const fresh: string[] = [];
          for (let index = 0; index < growthBatch; index++) fresh.push(await newSession(client));
          return fresh.map((sessionId) => () => turn(client, sessionId));
        },
      },
      {
        into: late,
        prepare: async () =>
          Array.from({ length: growthBatch }, () => {
            const sessionId = longIds[nextLong++ % longIds.length]!;
            return () => turn(client, sessionId);
          }),
      },
      {
        into: modelAlone,
        prepare: async () =>
          Array.from(
            { length: growthBatch },
            () => () =>
              sdk.chat.completions.create({ model, messages: [{ role: 'user', content: userText }] }),
          ),
      },
      {
        into: modelFirstBody,
        prepare: async () =>
          Array.from({ length: growthBatch }, () => () => sdk.chat.completions.create(firstBody)),
      },
      {
        into: modelLateBody,
        prepare: async () =>
          Array.from({ length: growthBatch }, () => () => sdk.chat.completions.create(lateBody)),
      },
    ];
    for (let round = 0; round < rounds; round++) {
      for (const phase of round % 2 === 0 ? phases : [...phases].reverse()) {
        const calls = await phase.prepare();
        const cpuBefore = processCpuMicroseconds(api.pid);
        for (const call of calls) {
          const started = performance.now();
          await call();
          phase.into.latencies.push(performance.now() - started);
        }
        phase.into.apiCpuMicroseconds += processCpuMicroseconds(api.pid) - cpuBefore;
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
    return {
      engine,
      label: tree === undefined ? engine : `${engine}, before (BENCH_BASELINE_TREE)`,
      first,
      late,
      modelAlone,
      modelFirstBody,
      modelLateBody,
      historyMessages: lateBody.messages.length,
      throughput,
      ...(profile !== undefined && { profile }),
    };
  } finally {
    await api?.stop();
    await database?.drop();
  }
}

async function main(): Promise<void> {
  // One recorded request: the body a turn sent, replayed by the model-alone variants.
  const emulator = await startEmulatorProcess({ maxRecordedRequests: 1 });
  const lines: string[] = [];
  try {
    const aloneThroughput = await modelAloneThroughput(emulator.url);
    const results: EngineResult[] = [];
    for (const engine of engines) {
      // The earlier code first, then this code, on the same emulator and machine state.
      if (baselineTree !== undefined) results.push(await measureEngine(engine, emulator, baselineTree));
      results.push(await measureEngine(engine, emulator));
    }

    const row = (label: string, samples: Samples, turn1?: Samples) =>
      `| ${label} | ${samples.latencies.length} | ${ms(p(samples.latencies, 0.5))} | ${ms(p(samples.latencies, 0.99))} | ${
        turn1 ? `${(p(samples.latencies, 0.5) / p(turn1.latencies, 0.5)).toFixed(2)}×` : '—'
      } | ${turn1 ? (samples.apiCpuMicroseconds / samples.latencies.length).toFixed(0) : '—'} |`;
    lines.push(
      `Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' / ')} at the end; emulator, API and this client share the CPUs.`,
      '',
      `### One at a time: turn 1 (fresh sessions) vs turn ${longTurns} (turns ${longTurns - windowTurns + 1}–${longTurns} of ${longSessions} sessions), interleaved in batches of ${growthBatch}`,
      '',
      '| path | samples | p50 ms | p99 ms | p50 vs turn 1 | API CPU µs per turn |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const result of results) {
      lines.push(
        row(
          `model call alone (SDK → emulator, one message), during the ${result.label} run`,
          result.modelAlone,
        ),
        row(`model call alone with turn 1's request`, result.modelFirstBody),
        row(
          `model call alone with turn ${longTurns}'s request (${result.historyMessages} messages)`,
          result.modelLateBody,
        ),
        row(`turn 1, ${result.label}`, result.first, result.first),
        row(`turn ${longTurns}, ${result.label}`, result.late, result.first),
      );
    }
    const added = (turnSamples: Samples, model: Samples) =>
      p(turnSamples.latencies, 0.5) - p(model.latencies, 0.5);
    lines.push(
      '',
      'What the turn adds over the model call alone with the same request (p50):',
      '',
      `| engine | turn 1 adds ms | turn ${longTurns} adds ms | ratio |`,
      '|---|---:|---:|---:|',
      ...results.map((result) => {
        const early = added(result.first, result.modelFirstBody);
        const lateAdded = added(result.late, result.modelLateBody);
        return `| ${result.label} | ${ms(early)} | ${ms(lateAdded)} | ${(lateAdded / early).toFixed(2)}× |`;
      }),
    );
    lines.push(
      '',
      `### Throughput, ${concurrency} in flight (${throughputRounds} × ${roundMs} ms; turns over ${throughputSessions} sessions)`,
      '',
      '| path | calls | per second | p50 ms | p99 ms | API CPU µs per turn |',
      '|---|---:|---:|---:|---:|---:|',
      `| model call alone | ${aloneThroughput.completed} | ${(aloneThroughput.completed / aloneThroughput.seconds).toFixed(0)} | ${ms(p(aloneThroughput.latencies, 0.5))} | ${ms(p(aloneThroughput.latencies, 0.99))} | — |`,
    );
    for (const result of results) {
      const { throughput } = result;
      lines.push(
        `| turns, ${result.label} | ${throughput.completed} | ${(throughput.completed / throughput.seconds).toFixed(0)} | ${ms(p(throughput.latencies, 0.5))} | ${ms(p(throughput.latencies, 0.99))} | ${(throughput.serverCpuMicroseconds / throughput.completed).toFixed(0)} |`,
      );
    }
    const check = (met: boolean) => (met ? 'met' : '**missed**');
    lines.push('', '### Targets', '', '| target | measured | |', '|---|---:|---|');
    for (const result of results) {
      const ratio = p(result.late.latencies, 0.5) / p(result.first.latencies, 0.5);
      const perSecond = result.throughput.completed / result.throughput.seconds;
      const floor = result.engine === 'sqlite' ? 800 : 500;
      lines.push(
        `| ${result.label}: turn ${longTurns} p50 ≤ 1.5× turn 1 p50 | ${ratio.toFixed(2)}× | ${check(ratio <= 1.5)} |`,
        `| ${result.label}: ≥ ${floor} turns/s at ${concurrency} in flight | ${perSecond.toFixed(0)} | ${check(perSecond >= floor)} |`,
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
