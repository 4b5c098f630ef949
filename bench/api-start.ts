/**
 * Start time and memory of the compiled API against the tsx start: `npm run bench -- api-start`.
 *
 * Builds the API once (`apps/api/build-tools/build-api.ts` into a temporary folder, as `nx build api`
 * does into dist/apps/api), then starts, in alternating rounds on a fresh SQLite file each time:
 *   - compiled: `node <build>/main.js` — plain node, no loader (what the Docker image runs);
 *   - tsx:      `node --import tsx apps/api/src/main.ts` — how `npm start`, the tests and the other
 *               benchmarks run it (TypeScript compiled by esbuild in memory at every start).
 * Per start: wall time from spawn to the first `GET /readyz` 200 (polled every 5 ms), the CPU time
 * the process used until then (less sensitive to other load on the machine than the wall time),
 * its resident memory (VmRSS) once ready, and again after 1,000 requests over keep-alive at
 * concurrency 8 (200 session creations, 200 agent turns against the provider emulator, running in a
 * process of its own, and 600 session lists), and its peak (VmHWM).
 *
 * Options (environment): BENCH_ROUNDS (default 7).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newAdminKey } from './support/api-process';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator-process';
import { percentile } from './support/measure';
import { freePort, processCpuMicroseconds } from './support/server-process';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 7);
const requestsAfterStart = 1000;
const concurrency = 8;
const workspace = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Variant {
  readonly name: 'compiled' | 'tsx';
  readonly args: (buildFolder: string) => string[];
}

const variants: readonly Variant[] = [
  { name: 'compiled', args: (buildFolder) => [join(buildFolder, 'main.js')] },
  { name: 'tsx', args: () => ['--import', 'tsx', join(workspace, 'apps/api/src/main.ts')] },
];

interface StartSample {
  readonly readyMs: number;
  readonly startCpuMs: number;
  readonly rssAfterStartMiB: number;
  readonly rssAfterRequestsMiB: number;
  readonly peakRssMiB: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function request(
  url: string,
  options: { method?: string; key?: string; body?: unknown; keepAlive?: boolean } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const outgoing = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: options.keepAlive === false ? false : agent,
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** VmRSS and VmHWM of a process, in MiB. */
function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function waitUntilReady(base: string, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${output()}`);
    try {
      // A fresh connection per probe: a keep-alive socket opened before listen would never connect.
      if ((await request(`${base}/readyz`, { keepAlive: false })).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** 200 session creations, 200 turns in them, 600 session lists; `concurrency` in flight. */
async function exerciseApi(base: string, key: string): Promise<void> {
  const sessionIds: string[] = [];
  const work: Array<() => Promise<void>> = [];
  const expectStatus = (expected: number, response: { status: number; body: string }, what: string) => {
    if (response.status !== expected)
      throw new Error(`${what} answered ${response.status}: ${response.body}`);
  };
  for (let index = 0; index < requestsAfterStart / 5; index++) {
    work.push(async () => {
      const created = await request(`${base}/v1/sessions`, {
        method: 'POST',
        key,
        body: { label: `start bench ${index}`, model: 'gpt-test' },
      });
      expectStatus(201, created, 'POST /v1/sessions');
      const id = (JSON.parse(created.body) as { id: string }).id;
      sessionIds.push(id);
      const turn = await request(`${base}/v1/sessions/${id}/messages`, {
        method: 'POST',
        key,
        body: { content: `Hello ${index}` },
      });
      expectStatus(200, turn, 'POST /v1/sessions/:id/messages');
      for (let list = 0; list < 3; list++) {
        expectStatus(200, await request(`${base}/v1/sessions?limit=20`, { key }), 'GET /v1/sessions');
      }
    });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < work.length) await work[next++]!();
    }),
  );
}

async function measureStart(
  variant: Variant,
  buildFolder: string,
  emulator: EmulatorProcess,
): Promise<StartSample> {
  const folder = mkdtempSync(join(tmpdir(), 'agentdesk-bench-start-'));
  const port = await freePort();
  const adminKey = newAdminKey();
  const started = performance.now();
  const child = spawn(process.execPath, variant.args(buildFolder), {
    cwd: workspace,
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: `sqlite:${join(folder, 'bench.db')}`,
      AGENTDESK_ADMIN_KEY: adminKey,
      AGENTDESK_RATE_LIMIT_MAX: '1000000',
      AGENTDESK_SANDBOX_ENABLED: 'false',
      OPENAI_API_KEY: 'sk-emulator',
      OPENAI_BASE_URL: `${emulator.url}/v1`,
      AGENTDESK_DEFAULT_MODEL: 'gpt-test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(base, child, () => output);
    const readyMs = performance.now() - started;
    const startCpuMs = processCpuMicroseconds(child.pid!) / 1000;
    const afterStart = memoryMiB(child.pid!);
    await exerciseApi(base, adminKey);
    const afterRequests = memoryMiB(child.pid!);
    return {
      readyMs,
      startCpuMs,
      rssAfterStartMiB: afterStart.rss,
      rssAfterRequestsMiB: afterRequests.rss,
      peakRssMiB: afterRequests.peak,
    };
  } finally {
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const buildFolder = mkdtempSync(join(tmpdir(), 'agentdesk-bench-build-'));
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(workspace, 'apps/api/build-tools/build-api.ts'), '--outdir', buildFolder],
    { cwd: workspace, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (build.status !== 0) throw new Error(`the API build failed (exit ${build.status})`);
  const emulator = await startEmulatorProcess();
  const samples = new Map<Variant['name'], StartSample[]>(variants.map((variant) => [variant.name, []]));
  try {
    // One discarded start of each warms the page cache, so neither variant pays for a cold disk.
    for (const variant of variants) await measureStart(variant, buildFolder, emulator);
    for (let round = 0; round < rounds; round++) {
      // Alternate which variant goes first, so drift in the machine's load hits both alike.
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order)
        samples.get(variant.name)!.push(await measureStart(variant, buildFolder, emulator));
    }
  } finally {
    await emulator.stop();
    agent.destroy();
    rmSync(buildFolder, { recursive: true, force: true });
  }

  const median = (name: Variant['name'], pick: (sample: StartSample) => number) =>
    percentile(samples.get(name)!.map(pick), 0.5);
  const range = (name: Variant['name'], pick: (sample: StartSample) => number) => {
    const values = samples.get(name)!.map(pick);
    return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  };
  const rows: Array<[string, (sample: StartSample) => number]> = [
    ['spawn → /readyz 200 (ms)', (sample) => sample.readyMs],
    ['CPU until ready (ms)', (sample) => sample.startCpuMs],
    ['RSS after start (MiB)', (sample) => sample.rssAfterStartMiB],
    [`RSS after ${requestsAfterStart} requests (MiB)`, (sample) => sample.rssAfterRequestsMiB],
    ['peak RSS (MiB)', (sample) => sample.peakRssMiB],
  ];
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    [
      `${rounds} alternating starts per variant (after one discarded start each), fresh SQLite file per start,`,
      `${cpus().length} CPUs, Node ${process.version}, load average at the end ${load}.`,
      'Medians, [min–max]; ratio = tsx / compiled.',
      '',
      '| measure | compiled (`node dist/apps/api/main.js`) | tsx (`node --import tsx apps/api/src/main.ts`) | tsx / compiled |',
      '|---|---|---|---|',
      ...rows.map(([label, pick]) => {
        const compiled = median('compiled', pick);
        const viaTsx = median('tsx', pick);
        return `| ${label} | ${compiled.toFixed(0)} [${range('compiled', pick)}] | ${viaTsx.toFixed(0)} [${range('tsx', pick)}] | ${(viaTsx / compiled).toFixed(2)}× |`;
      }),
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
