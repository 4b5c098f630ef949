/**
 * QA suites (issue 21), side by side in one run, against the real API process and the provider
 * emulator (each in its own process):
 *
 *   npm run bench -- qa-suites          (or: npx tsx bench/qa-suites.ts)
 *
 * 1. A 200-case × 3-target suite (one target per emulated provider) at the default concurrency (8
 *    per provider), from `POST /v1/qa/suites/:id/runs` to the `finished` event of its progress
 *    stream, beside the floor: the same 600 structured-output calls through `executeChatCompletion`
 *    straight to the same emulator, 8 in flight per provider. Interleaved, BENCH_SUITE_RUNS times.
 *    Target ≤ 30 s; the ratio to the floor is reported.
 * 2. `GET /v1/qa/runs/:id/compare?against=<id>` of two finished 1,000-cell runs (250 cases × 4
 *    targets, written through the repositories), sequential on one connection. Target p95 ≤ 100 ms.
 *    1 and 2 run on SQLite (in-process queue) and PostgreSQL (pg-boss).
 * 3. A custom JavaScript assertion per cell, the runner in a warm sandbox: the API on a private
 *    Docker engine (as bench/sandbox.ts), one cell at a time (AGENTDESK_QA_CELLS_IN_FLIGHT=1), the
 *    same 1-target suite with and without one `javascript` assertion, interleaved; a cell's time is
 *    the gap between consecutive cells' finish times. Target: + ≤ 15 ms p50 per cell.
 * 4. The console's matrix of a 1,000-cell run (/suites/runs/[runId]): long tasks in Chromium, as
 *    bench/console.ts (with its deliberate-120 ms control). Target: no task over 100 ms. Skipped with
 *    BENCH_CONSOLE=0.
 *
 * Environment: BENCH_ENGINES (sqlite,postgres; none: only part 3), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test),
 * BENCH_SUITE_RUNS (3), BENCH_RUNS (200 compare requests), BENCH_ASSERTION_CELLS (100 per run),
 * BENCH_ASSERTION_ROUNDS (3), BENCH_SANDBOX=0 / BENCH_CONSOLE=0 to skip 3 / 4, BENCH_PROFILE=1 (the API
 * under `node --cpu-prof`: where its time went from its first comparison on, per engine),
 * BENCH_SCREENSHOTS=<directory> (4: a PNG of each matrix page as measured).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI } from '@google/generative-ai';
import OpenAI from 'openai';
import pg from 'pg';
import { z } from 'zod';
import {
  assertionOutcomeJsonSchema,
  type AssertionOutcomeJson,
  type SuiteDefinitionInput,
  type SuiteJson,
  type SuiteRunJson,
} from '@agentdesk/api-contract';
import { executeChatCompletion, type JsonSchema, type SupportedClient } from '@agentdesk/providers';
import { buildOfflineBaseImage, startPrivateEngine } from '@agentdesk/sandbox';
import { createRepositories, openDatabase, type AppDatabase } from '@agentdesk/storage';
import { startApiProcess, type ApiProcess } from './support/api-process';
import { assertionParts } from './support/assertion-parts';
import { pageLongTasks, signIn, type PageLoadTasks } from './support/console-long-tasks';
import { formatSummary, profileIn, summarizeProfile } from './support/cpu-profile';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator-process';
import { percentile } from './support/measure';
import { startNextProcess } from './support/next-process';
import {
  callQa,
  createSuite,
  runToEnd,
  storeFinishedRun,
  threeTargets,
  ticketPrompt,
  ticketSchema,
  triageSuite,
  type QaClient,
} from './support/qa-suite-fixtures';
import { processCpuMicroseconds, type ServerProcess } from './support/server-process';

type Engine = 'sqlite' | 'postgres';

const workspaceRoot = fileURLToPath(new URL('..', import.meta.url));
/** `none` skips parts 1, 2 and 4 (the sandbox part alone). */
const engines = (process.env['BENCH_ENGINES'] ?? 'sqlite,postgres')
  .split(',')
  .filter((engine) => engine !== '' && engine !== 'none') as Engine[];
const postgresServerUrl = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const suiteRuns = Number(process.env['BENCH_SUITE_RUNS'] ?? 3);
const compareRuns = Number(process.env['BENCH_RUNS'] ?? 200);
const assertionCells = Number(process.env['BENCH_ASSERTION_CELLS'] ?? 100);
const assertionRounds = Number(process.env['BENCH_ASSERTION_ROUNDS'] ?? 3);
const measureSandbox = process.env['BENCH_SANDBOX'] !== '0';
const measureConsole = process.env['BENCH_CONSOLE'] !== '0';
const profiling = process.env['BENCH_PROFILE'] === '1';
/** Where part 4 keeps a screenshot of each matrix page it measured (their last load), to look at. */
const screenshotDirectory = process.env['BENCH_SCREENSHOTS'];
const consoleLoads = Number(process.env['BENCH_CONSOLE_LOADS'] ?? 5);

const SUITE_CASES = 200;
/** The issue's default: model calls in flight per provider. */
const CONCURRENCY_PER_PROVIDER = 8;
const SUITE_BUDGET_MS = 30_000;
const COMPARE_BUDGET_MS = 100;
const ASSERTION_BUDGET_MS = 15;
const LONG_TASK_BUDGET_MS = 100;
/** 250 cases × 4 targets = 1,000 cells. */
const COMPARE_CASES = 250;
const compareTargets = [
  ...threeTargets,
  { model: 'gpt-test', label: 'gpt-test (not strict)', strict: false },
];
/** Passes when the answer's priority is in range and a tag was given (the emulator's answers vary). */
const JAVASCRIPT_CHECK = 'return output.priority >= 1 && output.priority <= 5 && Array.isArray(output.tags)';

const loads: string[] = [];
function noteLoad(moment: string): void {
  loads.push(
    `${moment} ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')}`,
  );
}

const ms = (value: number) => value.toFixed(1);
const seconds = (value: number) => (value / 1000).toFixed(2);
const verdict = (met: boolean, over: string) => (met ? 'met' : `**missed** (${over})`);

// ---------- the floor: the model alone ----------

/** The 600 calls of the suite through executeChatCompletion, `CONCURRENCY_PER_PROVIDER` in flight per provider. */
async function modelAlone(emulator: EmulatorProcess): Promise<number> {
  const clients: Array<{ model: string; client: SupportedClient }> = [
    { model: 'gpt-test', client: new OpenAI({ apiKey: 'k', baseURL: `${emulator.url}/v1`, maxRetries: 0 }) },
    { model: 'claude-test', client: new Anthropic({ apiKey: 'k', baseURL: emulator.url, maxRetries: 0 }) },
    {
      model: 'gemini-test',
      client: new GoogleGenerativeAI('k').getGenerativeModel(
        { model: 'gemini-test' },
        { baseUrl: emulator.url, apiVersion: 'v1beta' },
      ),
    },
  ];
  const started = performance.now();
  await Promise.all(
    clients.map(async ({ model, client }) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY_PER_PROVIDER }, async () => {
          while (next < SUITE_CASES) {
            const index = next++;
            const result = await executeChatCompletion(client, {
              modelParams: { model },
              messages: [
                { role: 'system', content: 'You triage support tickets.' },
                { role: 'user', content: ticketPrompt(index) },
              ],
              responseFormat: {
                type: 'json_schema',
                schema: ticketSchema as JsonSchema,
                name: `ticket-${index}`,
                strict: true,
              },
            });
            if (result.json === undefined) throw new Error(`${model} answered no JSON`);
          }
        }),
      );
    }),
  );
  return performance.now() - started;
}

// ---------- the API on an engine ----------

async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `agentdesk_bench_qa_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
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

function emulatorEnvironment(emulator: EmulatorProcess): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-emulator',
    OPENAI_BASE_URL: `${emulator.url}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-emulator',
    ANTHROPIC_BASE_URL: emulator.url,
    GEMINI_API_KEY: 'gemini-emulator',
    GEMINI_BASE_URL: emulator.url,
    AGENTDESK_DEFAULT_MODEL: 'gpt-test',
  };
}

interface EngineApi {
  readonly api: ApiProcess;
  readonly client: QaClient;
  /** The API's database, opened by this process too (to write runs as workers would). */
  readonly database: AppDatabase;
  /** Stops everything; with BENCH_PROFILE=1, answers where the API's time went from its first comparison on. */
  stop(): Promise<string | undefined>;
}

async function startEngineApi(
  engine: Engine,
  emulator: EmulatorProcess,
  environment: Record<string, string> = {},
): Promise<EngineApi> {
  const folder = mkdtempSync(join(tmpdir(), 'agentdesk-bench-qa-'));
  const postgres = engine === 'postgres' ? await freshPostgresDatabase() : undefined;
  const databaseUrl = postgres?.url ?? `sqlite:${join(folder, 'qa.db')}`;
  const profileDirectory = profiling ? join(folder, 'profile') : undefined;
  const api = await startApiProcess(
    { ...emulatorEnvironment(emulator), DATABASE_URL: databaseUrl, ...environment },
    profileDirectory === undefined ? {} : { cpuProfileDirectory: profileDirectory },
  );
  const database = openDatabase({ url: databaseUrl, ...(postgres && { poolSize: 2 }) });
  return {
    api,
    client: { url: api.url, key: api.adminKey },
    database,
    async stop() {
      await database.destroy();
      await api.stop();
      await postgres?.drop();
      const file = profileDirectory === undefined ? undefined : profileIn(profileDirectory);
      const profile =
        file === undefined
          ? undefined
          : formatSummary(
              `API on ${engine}, from its first comparison`,
              summarizeProfile(file, { from: /^compare .*qa-runs\.service/ }),
            );
      rmSync(folder, { recursive: true, force: true });
      return profile;
    },
  };
}

// ---------- 1. a 200 × 3 suite vs the model alone ----------

interface SuiteRunSample {
  readonly clientMs: number;
  readonly serverMs: number;
  readonly floorMs: number;
  readonly apiCpuMs: number;
  readonly passed: number;
}

async function suiteBesideFloor(engineApi: EngineApi, emulator: EmulatorProcess): Promise<SuiteRunSample[]> {
  const suite = await createSuite(engineApi.client, triageSuite('triage-200', SUITE_CASES));
  // Warm-up: the routes, the providers' clients and the floor's, compiled and connected.
  await runToEnd(engineApi.client, (await createSuite(engineApi.client, triageSuite('warm-up', 20))).id);
  await modelAlone(emulator);
  const samples: SuiteRunSample[] = [];
  for (let round = 0; round < suiteRuns; round++) {
    // Alternating order, so drift in the machine's load hits both alike.
    let floorMs = 0;
    if (round % 2 === 1) floorMs = await modelAlone(emulator);
    const cpuBefore = processCpuMicroseconds(engineApi.api.pid);
    const { run, clientMs, serverMs } = await runToEnd(engineApi.client, suite.id);
    const apiCpuMs = (processCpuMicroseconds(engineApi.api.pid) - cpuBefore) / 1000;
    if (round % 2 === 0) floorMs = await modelAlone(emulator);
    samples.push({ clientMs, serverMs, floorMs, apiCpuMs, passed: run.counts.passed });
  }
  return samples;
}

// ---------- 2. comparing two 1,000-cell runs ----------

async function comparison(engineApi: EngineApi): Promise<{
  runIds: [string, string];
  suite: SuiteJson;
  latencies: number[];
  cpuPerRequestMs: number;
  regressions: number;
}> {
  const suite = await createSuite(
    engineApi.client,
    triageSuite('compare-1000', COMPARE_CASES, { targets: compareTargets }),
  );
  const repositories = createRepositories(engineApi.database);
  const before = await storeFinishedRun(repositories, suite, 1);
  const after = await storeFinishedRun(repositories, suite, 2);
  const path = `/v1/qa/runs/${after}/compare?against=${before}`;
  const compare = () =>
    callQa<{ cells: unknown[]; counts: Record<string, number> }>(engineApi.client, 'GET', path);
  const first = await compare();
  if (first.cells.length !== COMPARE_CASES * compareTargets.length)
    throw new Error(`the comparison has ${first.cells.length} cells`);
  for (let index = 0; index < 20; index++) await compare();
  const latencies: number[] = [];
  const cpuBefore = processCpuMicroseconds(engineApi.api.pid);
  for (let index = 0; index < compareRuns; index++) {
    const started = performance.now();
    await compare();
    latencies.push(performance.now() - started);
  }
  const cpuPerRequestMs = (processCpuMicroseconds(engineApi.api.pid) - cpuBefore) / 1000 / compareRuns;
  return {
    runIds: [before, after],
    suite,
    latencies,
    cpuPerRequestMs,
    regressions: first.counts['regression'] ?? 0,
  };
}

// ---------- 3. a JavaScript assertion per cell ----------

/** Gaps between consecutive finishes of a run's cells (one cell at a time: each gap is one cell). */
async function cellGaps(database: AppDatabase, runId: string): Promise<number[]> {
  const cells = await createRepositories(database).qaRuns.cells(runId);
  const finishes = cells.map((cell) => cell.finishedAt!.getTime()).sort((a, b) => a - b);
  return finishes.slice(1).map((finish, index) => finish - finishes[index]!);
}

/** The `javascript` outcome of every cell of a run (read from the stored results). */
async function javascriptOutcomes(
  database: AppDatabase,
  run: SuiteRunJson,
): Promise<Array<AssertionOutcomeJson | undefined>> {
  const repositories = createRepositories(database);
  const outcomes: Array<AssertionOutcomeJson | undefined> = [];
  for (const cell of run.cells) {
    const stored = await repositories.qaRuns.cell(run.id, cell.caseIndex, cell.targetIndex);
    const assertions = z.array(assertionOutcomeJsonSchema).parse(stored.result?.['assertions'] ?? []);
    outcomes.push(assertions.find((assertion) => assertion.kind === 'javascript'));
  }
  return outcomes;
}

/** Runs a small JavaScript suite until the sandbox judges it (the image is built at the API's start, the container at the first check). */
async function warmSandbox(engineApi: EngineApi, targets: SuiteDefinitionInput['targets']): Promise<void> {
  const warm = await createSuite(
    engineApi.client,
    triageSuite(`javascript-warm-up-${targets.length}`, 10, { targets, javascript: JAVASCRIPT_CHECK }),
  );
  for (let attempt = 0; ; attempt++) {
    const { run } = await runToEnd(engineApi.client, warm.id);
    const outcomes = await javascriptOutcomes(engineApi.database, run);
    if (outcomes.every((outcome) => outcome !== undefined && outcome.passed !== null)) return;
    if (attempt === 30)
      throw new Error(
        `the sandbox never judged: ${outcomes.find((outcome) => outcome?.passed === null)?.message}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

async function javascriptAssertion(emulator: EmulatorProcess) {
  const engine = await startPrivateEngine({
    directory: mkdtempSync('/tmp/agentdesk-bench-'),
    log: () => undefined,
  });
  let engineApi: EngineApi | undefined;
  try {
    const baseImage = 'agentdesk-bench-base:local';
    await buildOfflineBaseImage(engine.engine, { reference: baseImage });
    const sandboxEnvironment = {
      AGENTDESK_SANDBOX_ENABLED: 'true',
      DOCKER_HOST: engine.dockerHost,
      AGENTDESK_SANDBOX_IMAGE: 'agentdesk-bench-qa:latest',
      AGENTDESK_SANDBOX_BASE_IMAGE: baseImage,
      AGENTDESK_SANDBOX_OFFLINE_BASE: 'true',
      AGENTDESK_SANDBOX_OWNER: 'bench-qa',
      AGENTDESK_SANDBOX_WARM_POOL: '1',
    };
    // a. One cell at a time: the gap between two cells' finishes is one cell's whole time.
    engineApi = await startEngineApi('sqlite', emulator, {
      ...sandboxEnvironment,
      AGENTDESK_QA_CELLS_IN_FLIGHT: '1',
    });
    const oneTarget = [{ model: 'gpt-test' }];
    const plain = await createSuite(
      engineApi.client,
      triageSuite('plain', assertionCells, { targets: oneTarget }),
    );
    const scripted = await createSuite(
      engineApi.client,
      triageSuite('javascript', assertionCells, { targets: oneTarget, javascript: JAVASCRIPT_CHECK }),
    );
    await warmSandbox(engineApi, oneTarget);
    const without: number[] = [];
    const withScript: number[] = [];
    const durations: number[] = [];
    let unjudged = 0;
    for (let round = 0; round < assertionRounds; round++) {
      const order = round % 2 === 0 ? ([plain, scripted] as const) : ([scripted, plain] as const);
      for (const suite of order) {
        const { run } = await runToEnd(engineApi.client, suite.id);
        (suite === plain ? without : withScript).push(...(await cellGaps(engineApi.database, run.id)));
        if (suite !== scripted) continue;
        for (const outcome of await javascriptOutcomes(engineApi.database, run)) {
          if (outcome === undefined || outcome.passed === null) unjudged += 1;
          if (typeof outcome?.durationMs === 'number') durations.push(outcome.durationMs);
        }
      }
    }
    await engineApi.stop();
    engineApi = undefined;

    // b. The 200 × 3 suite with one JavaScript assertion per case, at the default concurrency.
    engineApi = await startEngineApi('sqlite', emulator, sandboxEnvironment);
    const wholeSuite = await createSuite(
      engineApi.client,
      triageSuite('triage-200-javascript', SUITE_CASES, { javascript: JAVASCRIPT_CHECK }),
    );
    await warmSandbox(engineApi, threeTargets);
    const suiteRun = await runToEnd(engineApi.client, wholeSuite.id);
    const suiteUnjudged = (await javascriptOutcomes(engineApi.database, suiteRun.run)).filter(
      (outcome) => outcome === undefined || outcome.passed === null,
    ).length;
    await engineApi.stop();
    engineApi = undefined;

    // c. Where the time goes: the runner's steps timed alone in a warm session of the same engine.
    const parts = await assertionParts({
      dockerHost: engine.dockerHost,
      baseImage,
      rounds: 40,
      code: JAVASCRIPT_CHECK,
    });
    return {
      parts,
      without,
      withScript,
      durations,
      unjudged,
      suite: { clientMs: suiteRun.clientMs, unjudged: suiteUnjudged },
      engineVersion: await engine.engine.version().catch(() => 'unknown'),
    };
  } finally {
    await engineApi?.stop();
    await engine.stop({ removeDirectory: true });
  }
}

// ---------- 4. the console's matrix ----------

async function consoleMatrix(
  engineApi: EngineApi,
  runIds: [string, string],
): Promise<{
  measured: PageLoadTasks[];
  profiled: PageLoadTasks[];
  htmlBytes: Array<{ path: string; bytes: number }>;
}> {
  console.log('building the console (nx console:build)…');
  execFileSync(
    'flock',
    [
      '/tmp/console-e2e.lock',
      join(workspaceRoot, 'node_modules/.bin/nx'),
      'run',
      'console:build',
      '--outputStyle=static',
    ],
    {
      cwd: workspaceRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NEXT_TELEMETRY_DISABLED: '1' },
    },
  );
  let consoleServer: ServerProcess | undefined;
  try {
    consoleServer = await startNextProcess({
      workspaceRoot,
      appDirectory: 'apps/console',
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        NODE_ENV: 'production',
        AGENTDESK_API_URL: engineApi.api.url,
      },
    });
    const cookie = await signIn(consoleServer.url, engineApi.api.adminKey);
    const [before, after] = runIds;
    const pages = {
      consoleUrl: consoleServer.url,
      cookie,
      paths: [`/suites/runs/${after}`, `/suites/runs/${after}?against=${before}`],
      // The matrix whole: its rows after the first screen arrive in slices, each a task that counts.
      ready: 'table.run-matrix[aria-busy="false"]',
      ...(screenshotDirectory !== undefined && { screenshotDirectory }),
    };
    // One unmeasured load of each page: the server's first render of a route compiles and caches.
    await pageLongTasks({ ...pages, loads: 1, profile: false });
    const measured = await pageLongTasks({ ...pages, loads: consoleLoads, profile: false });
    // Profiled loads apart: the profiler slows the page, so their tasks are not counted.
    const profiled = profiling ? await pageLongTasks({ ...pages, loads: 1, profile: true }) : [];
    // The document's size: the matrix is rendered on the server, and the same rows travel again as the RSC payload.
    const htmlBytes = await Promise.all(
      pages.paths.map(async (path) => {
        const response = await fetch(`${pages.consoleUrl}${path}`, { headers: { cookie } });
        return { path, bytes: Buffer.byteLength(await response.text()) };
      }),
    );
    return { measured, profiled, htmlBytes };
  } finally {
    await consoleServer?.stop();
  }
}

// ---------- main ----------

async function main(): Promise<void> {
  noteLoad('start');
  const emulator = await startEmulatorProcess();
  const suiteResults = new Map<Engine, SuiteRunSample[]>();
  const compareResults = new Map<Engine, Awaited<ReturnType<typeof comparison>>>();
  let matrix: Awaited<ReturnType<typeof consoleMatrix>> | undefined;
  let assertion: Awaited<ReturnType<typeof javascriptAssertion>> | undefined;
  const profiles: string[] = [];
  try {
    for (const engine of engines) {
      const engineApi = await startEngineApi(engine, emulator);
      try {
        suiteResults.set(engine, await suiteBesideFloor(engineApi, emulator));
        noteLoad(`after the ${engine} suite runs`);
        const compared = await comparison(engineApi);
        compareResults.set(engine, compared);
        noteLoad(`after the ${engine} comparisons`);
        if (engine === 'sqlite' && measureConsole) {
          matrix = await consoleMatrix(engineApi, compared.runIds);
          noteLoad('after the console');
        }
      } finally {
        const profile = await engineApi.stop();
        if (profile !== undefined) profiles.push(profile);
      }
    }
    if (measureSandbox) {
      assertion = await javascriptAssertion(emulator);
      noteLoad('after the assertions');
    }
  } finally {
    await emulator.stop();
  }

  console.log(
    `\n${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString()}`,
  );
  console.log(`load average (1 / 5 / 15 min): ${loads.join('; ')}`);

  console.log(
    `\n1. ${SUITE_CASES} cases × 3 targets (${SUITE_CASES * 3} cells), default concurrency ${CONCURRENCY_PER_PROVIDER} per provider, emulator without delay`,
  );
  console.log(
    '| engine | run | POST → `finished` event s | created → finished (server) s | model alone s | ratio | API CPU s | passed | target ≤ 30 s |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const [engine, samples] of suiteResults) {
    samples.forEach((sample, index) =>
      console.log(
        `| ${engine} | ${index + 1} | ${seconds(sample.clientMs)} | ${seconds(sample.serverMs)} | ${seconds(sample.floorMs)} | ${(sample.clientMs / sample.floorMs).toFixed(1)}× | ${seconds(sample.apiCpuMs)} | ${sample.passed} | ${verdict(sample.clientMs <= SUITE_BUDGET_MS, `${seconds(sample.clientMs - SUITE_BUDGET_MS)} s over`)} |`,
      ),
    );
    const median = (pick: (sample: SuiteRunSample) => number) => percentile(samples.map(pick), 0.5);
    console.log(
      `| ${engine} | median | ${seconds(median((s) => s.clientMs))} | ${seconds(median((s) => s.serverMs))} | ${seconds(median((s) => s.floorMs))} | ${(median((s) => s.clientMs) / median((s) => s.floorMs)).toFixed(1)}× | ${seconds(median((s) => s.apiCpuMs))} | | |`,
    );
  }

  console.log(
    `\n2. GET /v1/qa/runs/:id/compare?against=<id>, two runs of ${COMPARE_CASES * compareTargets.length} cells, ${compareRuns} sequential requests after 20 unmeasured`,
  );
  console.log(
    '| engine | p50 ms | p95 ms | p99 ms | max ms | API CPU ms/request | regressions found | target p95 ≤ 100 ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const [engine, result] of compareResults) {
    const p95 = percentile(result.latencies, 0.95);
    console.log(
      `| ${engine} | ${ms(percentile(result.latencies, 0.5))} | ${ms(p95)} | ${ms(percentile(result.latencies, 0.99))} | ${ms(Math.max(...result.latencies))} | ${ms(result.cpuPerRequestMs)} | ${result.regressions} | ${verdict(p95 <= COMPARE_BUDGET_MS, `${ms(p95 - COMPARE_BUDGET_MS)} ms over`)} |`,
    );
  }

  if (assertion !== undefined) {
    const without = percentile(assertion.without, 0.5);
    const withScript = percentile(assertion.withScript, 0.5);
    console.log(
      `\n3. one JavaScript assertion per cell (engine ${assertion.engineVersion}), one cell at a time, ${assertionRounds} interleaved rounds × ${assertionCells} cells per variant (SQLite)`,
    );
    console.log('| variant | cells | p50 ms per cell | p95 ms | mean ms |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, gaps] of [
      ['declarative assertions only', assertion.without],
      ['the same + one `javascript` assertion', assertion.withScript],
    ] as const)
      console.log(
        `| ${name} | ${gaps.length} | ${ms(percentile(gaps, 0.5))} | ${ms(percentile(gaps, 0.95))} | ${ms(gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length)} |`,
      );
    console.log(
      `added p50 per cell: ${ms(withScript - without)} ms — target ≤ ${ASSERTION_BUDGET_MS} ms: ${verdict(withScript - without <= ASSERTION_BUDGET_MS, `${ms(withScript - without - ASSERTION_BUDGET_MS)} ms over`)}; the check itself in node:vm p50 ${ms(percentile(assertion.durations, 0.5))} ms; unjudged checks: ${assertion.unjudged}`,
    );
    console.log(
      `the ${SUITE_CASES} × 3 suite with one JavaScript assertion per case, default concurrency: ${seconds(assertion.suite.clientMs)} s (POST → finished), ${assertion.suite.unjudged} checks unjudged`,
    );
    console.log(
      '\nwhere the time of a check goes (each step alone in a warm session, 40 interleaved rounds):',
    );
    console.log('| step | p50 ms | p95 ms |');
    console.log('|---|---:|---:|');
    for (const part of assertion.parts) console.log(`| ${part.name} | ${ms(part.p50)} | ${ms(part.p95)} |`);
  }

  for (const profile of profiles) console.log(`\n${profile}`);

  if (matrix !== undefined) {
    console.log(
      `\n4. the console's matrix of a ${COMPARE_CASES * compareTargets.length}-cell run (next start, Chromium), ${consoleLoads} cold loads per page, interleaved`,
    );
    console.log(
      `| page | loads | shown (network idle) p50 ms | long tasks (> 50 ms) per load | longest ms | loads with a task over ${LONG_TASK_BUDGET_MS} ms | control seen | target: no task over ${LONG_TASK_BUDGET_MS} ms |`,
    );
    console.log('|---|---:|---:|---|---:|---:|---|---|');
    const shown = (path: string) =>
      path.replace(/runs\/[^/?]+/, 'runs/[runId]').replace(/against=.*/, 'against=[earlier]');
    for (const path of new Set(matrix.measured.map((load) => load.path))) {
      const loads = matrix.measured.filter((load) => load.path === path);
      const longest = Math.max(0, ...loads.flatMap((load) => load.tasks));
      const over = loads.filter((load) => load.tasks.some((task) => task > LONG_TASK_BUDGET_MS)).length;
      console.log(
        `| ${shown(path)} | ${loads.length} | ${percentile(
          loads.map((load) => load.loadedMs),
          0.5,
        ).toFixed(
          0,
        )} | ${loads.map((load) => load.tasks.length).join(', ')} | ${longest.toFixed(0)} | ${over} | ${loads.every((load) => load.controlSeen) ? 'yes' : 'NO — not trustworthy'} | ${verdict(over === 0, `longest ${longest.toFixed(0)} ms`)} |`,
      );
    }
    for (const { path, bytes } of matrix.htmlBytes)
      console.log(`HTML of ${shown(path)}: ${(bytes / 1024).toFixed(0)} KB (uncompressed)`);
    for (const load of matrix.profiled) {
      console.log(
        `\nself time inside the long tasks of a traced load of ${shown(load.path)} (long tasks ${load.tasks.map((task) => task.toFixed(0)).join(', ') || 'none'} ms, slowed by tracing):`,
      );
      for (const entry of load.profile ?? []) console.log(`- ${entry.name}: ${entry.ms.toFixed(1)} ms`);
    }
  }
}

await main();
