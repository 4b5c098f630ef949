/**
 * The cost of authentication + authorization on the API: `npx tsx bench/api-auth.ts`.
 *
 * Starts the real API (`apps/api/src/main.ts`) in a child process on a fresh SQLite file (first
 * start: the admin key is read from its console output), seeds users, keys and sessions through
 * the HTTP API, then loads two routes of that one process over keep-alive HTTP from this process:
 *   - `GET /v1/sessions/:id` with a user key (API key lookup, SHA-256, constant-time compare,
 *     rate-limit counter, scope check, effective user, owner-scoped query, JSON of a session);
 *   - `GET /` — a `@Public()` Nest + Fastify route returning a constant (same guard, no auth).
 * Both run through the same app, so the difference is what auth + authz + the owner-scoped read add.
 *
 * Issue 11 adds three more API processes on the same SQLite file, so the authenticated route is
 * measured four ways: rate limits in process memory or in Redis (AGENTDESK_REDIS_URL, the machine's
 * Redis at 127.0.0.1:6379, a key prefix of this run), each with the verified-key cache off
 * (AGENTDESK_KEY_CACHE_TTL_MS=0: hash + database read per request, the behaviour before) or on
 * (default TTL: 1 s without Redis, 5 s with it). Every route and variant is measured in alternating
 * rounds (A, B, C…, A, B, C…) so drift hits all alike, and the server's CPU time per request is read
 * from /proc (less sensitive to the other work on a shared machine than latency).
 *
 * Options (environment): BENCH_ROUNDS (default 6), BENCH_ROUND_MS (default 2000),
 * BENCH_CONCURRENCY (default 8), BENCH_SESSIONS (sessions of the measured user, default 1000),
 * BENCH_OTHER_USERS (default 20, each with BENCH_SESSIONS / 10 sessions), BENCH_REDIS_URL
 * (default redis://127.0.0.1:6379/0).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 6);
const roundMs = Number(process.env['BENCH_ROUND_MS'] ?? 2000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const sessionsOfUser = Number(process.env['BENCH_SESSIONS'] ?? 1000);
const otherUsers = Number(process.env['BENCH_OTHER_USERS'] ?? 20);
const redisUrl = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379/0';
const redisKeyPrefix = `agentdesk-bench-${randomBytes(6).toString('hex')}`;

const workspace = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Server {
  readonly url: string;
  readonly adminKey: string;
  readonly process: ChildProcess;
}

async function startServer(folder: string, extraEnvironment: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(workspace, 'apps/api/src/main.ts')], {
    cwd: workspace,
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${join(folder, 'bench.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AGENTDESK_RATE_LIMIT_MAX: '1000000',
      AGENTDESK_RATE_LIMIT_WINDOW_MS: '60000',
      ...extraEnvironment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The API did not start:\n${output}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`The API exited with ${code}:\n${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1];
      const adminKey =
        extraEnvironment['AGENTDESK_ADMIN_KEY'] ?? /(adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43})/.exec(output)?.[1];
      if (url !== undefined && adminKey !== undefined) {
        clearTimeout(timer);
        resolve({ url, adminKey, process: child });
      }
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function call(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      url,
      {
        agent,
        method,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function json<T>(url: string, method: string, key: string, body?: unknown): Promise<T> {
  const response = await call(url, method, { authorization: `Bearer ${key}` }, body);
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${response.body}`);
  return JSON.parse(response.body) as T;
}

async function inBatches(count: number, task: (index: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += 32) {
    await Promise.all(
      Array.from({ length: Math.min(32, count - start) }, (_unused, offset) => task(start + offset)),
    );
  }
}

async function seed(server: Server): Promise<{ userKey: string; sessionIds: string[] }> {
  const createKey = (externalId: string) =>
    json<{ key: string }>(`${server.url}/v1/admin/api-keys`, 'POST', server.adminKey, {
      role: 'user',
      label: `bench ${externalId}`,
      externalId,
    });
  for (let user = 0; user < otherUsers; user += 1) {
    const { key } = await createKey(`other-${user}`);
    await inBatches(Math.ceil(sessionsOfUser / 10), (index) =>
      json(`${server.url}/v1/sessions`, 'POST', key, {
        label: `other ${user} session ${index}`,
        metadata: { index },
      }),
    );
  }
  const { key: userKey } = await createKey('measured-user');
  const sessionIds: string[] = [];
  await inBatches(sessionsOfUser, async (index) => {
    const session = await json<{ id: string }>(`${server.url}/v1/sessions`, 'POST', userKey, {
      label: `measured session ${index}`,
      model: 'gpt-4o-mini',
      metadata: { ticket: index, tags: ['bench'] },
    });
    sessionIds.push(session.id);
  });
  return { userKey, sessionIds };
}

interface Sample {
  readonly latenciesMs: number[];
  requests: number;
  elapsedMs: number;
  /** CPU time (user + system) the measured server process spent in the rounds. */
  serverCpuMs: number;
  /** Server CPU µs per request of each round, to compare variants round by round. */
  readonly roundCpuMicroseconds: number[];
}

const emptySample = (): Sample => ({
  latenciesMs: [],
  requests: 0,
  elapsedMs: 0,
  serverCpuMs: 0,
  roundCpuMicroseconds: [],
});

/** User + system CPU time of a process so far, from /proc (clock ticks of 10 ms). */
function cpuTimeMs(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command name.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Runs `concurrency` closed-loop clients for `durationMs`, recording each request's latency. */
async function load(
  durationMs: number,
  clients: number,
  request: () => Promise<number>,
  sample: Sample,
  server: ChildProcess,
): Promise<void> {
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  const cpuBefore = cpuTimeMs(server);
  const requestsBefore = sample.requests;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        const status = await request();
        sample.latenciesMs.push(performance.now() - begin);
        sample.requests += 1;
        if (status !== 200) throw new Error(`Unexpected status ${status}`);
      }
    }),
  );
  sample.elapsedMs += performance.now() - started;
  const cpuMs = cpuTimeMs(server) - cpuBefore;
  sample.serverCpuMs += cpuMs;
  sample.roundCpuMicroseconds.push((cpuMs * 1000) / Math.max(1, sample.requests - requestsBefore));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

interface Summary {
  readonly p50: number;
  readonly p99: number;
  readonly rps: number;
  readonly count: number;
  readonly cpuMicrosecondsPerRequest: number;
}

function summarize(sample: Sample): Summary {
  const sorted = [...sample.latenciesMs].sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    rps: (sample.requests / sample.elapsedMs) * 1000,
    count: sample.requests,
    cpuMicrosecondsPerRequest: (sample.serverCpuMs * 1000) / sample.requests,
  };
}

/** One measured route on one server process. */
interface Variant {
  readonly label: string;
  readonly server: Server;
  readonly request: () => Promise<number>;
}

async function measure(variants: readonly Variant[], clients: number): Promise<Sample[]> {
  // Warm-up (JIT, SQLite page cache, connections, key caches), not recorded.
  for (const variant of variants)
    await load(1000, clients, variant.request, emptySample(), variant.server.process);
  const samples = variants.map(emptySample);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, variant] of variants.entries()) {
      await load(roundMs, clients, variant.request, samples[index]!, variant.server.process);
    }
  }
  return samples;
}

function table(title: string, variants: readonly Variant[], samples: readonly Sample[]): string {
  const summaries = samples.map(summarize);
  const hello = summaries[0]!;
  const format = (value: number) => value.toFixed(3);
  return [
    `### ${title}`,
    '',
    '| route / variant | requests | p50 (ms) | p99 (ms) | requests/s | server CPU µs/request | p50 vs hello | CPU vs memory, no cache (median of round ratios) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...variants.map((variant, index) => {
      const summary = summaries[index]!;
      // Median over rounds of this variant's CPU per request / the baseline's in the same round:
      // a burst of other work on the machine weighs on both sides of one ratio alike.
      const roundRatios = samples[index]!.roundCpuMicroseconds.map(
        (cpu, round) => cpu / (samples[1]!.roundCpuMicroseconds[round] ?? Number.NaN),
      );
      const cpuRatio = index === 0 ? '—' : `${median(roundRatios).toFixed(2)}×`;
      return `| ${variant.label} | ${summary.count} | ${format(summary.p50)} | ${format(summary.p99)} | ${summary.rps.toFixed(0)} | ${summary.cpuMicrosecondsPerRequest.toFixed(0)} | ${index === 0 ? '—' : `+${format(summary.p50 - hello.p50)}`} | ${cpuRatio} |`;
    }),
    '',
  ].join('\n');
}

const serverVariants = [
  {
    label: 'memory limits, no key cache (before issue 11)',
    environment: { AGENTDESK_KEY_CACHE_TTL_MS: '0' },
  },
  { label: 'memory limits, key cache (TTL 1 s)', environment: {} },
  {
    label: 'Redis limits, no key cache',
    environment: {
      AGENTDESK_REDIS_URL: redisUrl,
      AGENTDESK_REDIS_KEY_PREFIX: redisKeyPrefix,
      AGENTDESK_KEY_CACHE_TTL_MS: '0',
    },
  },
  {
    label: 'Redis limits, key cache (TTL 5 s)',
    environment: { AGENTDESK_REDIS_URL: redisUrl, AGENTDESK_REDIS_KEY_PREFIX: redisKeyPrefix },
  },
] as const;

async function deleteBenchKeys(): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisKeyPrefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agentdesk-bench-api-auth-'));
  const servers: Server[] = [];
  try {
    const first = await startServer(folder, serverVariants[0].environment);
    servers.push(first);
    // The others share the first one's SQLite file (WAL) and its admin key.
    for (const variant of serverVariants.slice(1)) {
      servers.push(
        await startServer(folder, { ...variant.environment, AGENTDESK_ADMIN_KEY: first.adminKey }),
      );
    }
    const seedStart = performance.now();
    const { userKey, sessionIds } = await seed(first);
    const totalSessions = sessionsOfUser + otherUsers * Math.ceil(sessionsOfUser / 10);
    console.log(
      `Seeded ${totalSessions} sessions of ${otherUsers + 1} users over HTTP in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    console.log(
      `Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}); the servers, Redis and the load generator share them.`,
    );
    console.log(
      `Rounds: ${rounds} × ${roundMs} ms per route and variant, alternating. Redis keys: ${redisKeyPrefix}:*\n`,
    );
    let next = 0;
    const authRequest = (server: Server) => async () => {
      const id = sessionIds[next++ % sessionIds.length] ?? '';
      return (await call(`${server.url}/v1/sessions/${id}`, 'GET', { authorization: `Bearer ${userKey}` }))
        .status;
    };
    const variants: Variant[] = [
      {
        label: '`GET /` (public hello, Nest + Fastify)',
        server: first,
        request: async () => (await call(`${first.url}/`, 'GET', {})).status,
      },
      ...serverVariants.map((variant, index) => ({
        label: `\`GET /v1/sessions/:id\`, ${variant.label}`,
        server: servers[index]!,
        request: authRequest(servers[index]!),
      })),
    ];
    console.log(table('One connection (latency without queueing)', variants, await measure(variants, 1)));
    console.log(
      table(
        `${concurrency} keep-alive connections (throughput)`,
        variants,
        await measure(variants, concurrency),
      ),
    );
  } finally {
    agent.destroy();
    for (const server of servers) {
      server.process.kill('SIGTERM');
      await new Promise((resolve) => server.process.once('exit', resolve));
    }
    rmSync(folder, { recursive: true, force: true });
    await deleteBenchKeys();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
