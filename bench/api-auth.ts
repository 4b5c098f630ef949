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
 * Issue 18 authenticates through passport (one strategy per way in) and adds console sessions: the
 * same route is also measured with the measured user's console session (`X-Console-Session`: one
 * database read per request, nothing cached), and — with BENCH_BASELINE_TREE, a checkout of the
 * code before (e.g. `git worktree add /tmp/agentdesk-before <commit>` with a `node_modules` link) —
 * on an API process started from that checkout, interleaved in the same rounds: before and after in
 * one run. The baseline gets its own SQLite file (its migrations are older), seeded the same way.
 * The measured user holds an admin key (a console may only be signed in to by an admin or viewer;
 * the route does the same work for every role).
 *
 * Options (environment): BENCH_ROUNDS (default 6), BENCH_ROUND_MS (default 2000),
 * BENCH_CONCURRENCY (default 8), BENCH_SESSIONS (sessions of the measured user, default 1000),
 * BENCH_OTHER_USERS (default 20, each with BENCH_SESSIONS / 10 sessions), BENCH_REDIS_URL
 * (default redis://127.0.0.1:6379/0), BENCH_BASELINE_TREE (default: none).
 */
import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
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
const baselineTree = process.env['BENCH_BASELINE_TREE'];

const workspace = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Server {
  readonly url: string;
  readonly adminKey: string;
  readonly process: ChildProcess;
}

async function startServer(
  folder: string,
  extraEnvironment: Record<string, string> = {},
  tree: string = workspace,
): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(tree, 'apps/api/src/main.ts')], {
    cwd: tree,
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

interface Seeded {
  readonly userKey: string;
  readonly sessionIds: string[];
  /** The measured user's console session token; undefined on a baseline without console sessions. */
  readonly consoleToken: string | undefined;
}

async function seed(server: Server, withConsoleSession: boolean): Promise<Seeded> {
  const createKey = (externalId: string, role: 'user' | 'admin' = 'user') =>
    json<{ key: string }>(`${server.url}/v1/admin/api-keys`, 'POST', server.adminKey, {
      role,
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
  const { key: userKey } = await createKey('measured-user', 'admin');
  const sessionIds: string[] = [];
  await inBatches(sessionsOfUser, async (index) => {
    const session = await json<{ id: string }>(`${server.url}/v1/sessions`, 'POST', userKey, {
      label: `measured session ${index}`,
      model: 'gpt-4o-mini',
      metadata: { ticket: index, tags: ['bench'] },
    });
    sessionIds.push(session.id);
  });
  const consoleToken = withConsoleSession
    ? (await json<{ token: string }>(`${server.url}/v1/console-sessions`, 'POST', userKey, {})).token
    : undefined;
  return { userKey, sessionIds, consoleToken };
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
  /** The row of the hello route of the same code (this tree's, or the baseline's); none for a hello row. */
  readonly hello?: number;
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

function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

function table(title: string, variants: readonly Variant[], samples: readonly Sample[]): string {
  const summaries = samples.map(summarize);
  const format = (value: number) => value.toFixed(3);
  return [
    `### ${title}`,
    '',
    `| route / variant | requests | p50 (ms) | p99 (ms) | requests/s | server CPU µs/request | p50 vs its hello | CPU µs vs its hello (median of rounds) | CPU vs ${ratioBaseLabel} (median of round ratios) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...variants.map((variant, index) => {
      const summary = summaries[index]!;
      if (variant.hello === undefined)
        return `| ${variant.label} | ${summary.count} | ${format(summary.p50)} | ${format(summary.p99)} | ${summary.rps.toFixed(0)} | ${summary.cpuMicrosecondsPerRequest.toFixed(0)} | — | — | — |`;
      const hello = summaries[variant.hello]!;
      // Median over rounds of this variant's CPU per request / the baseline's in the same round:
      // a burst of other work on the machine weighs on both sides of one ratio alike.
      const roundRatios = samples[index]!.roundCpuMicroseconds.map(
        (cpu, round) => cpu / (samples[ratioBase]!.roundCpuMicroseconds[round] ?? Number.NaN),
      );
      // What authentication and the read add over the same code's hello route, round by round.
      const roundAdded = samples[index]!.roundCpuMicroseconds.map(
        (cpu, round) => cpu - (samples[variant.hello!]!.roundCpuMicroseconds[round] ?? Number.NaN),
      );
      return `| ${variant.label} | ${summary.count} | ${format(summary.p50)} | ${format(summary.p99)} | ${summary.rps.toFixed(0)} | ${summary.cpuMicrosecondsPerRequest.toFixed(0)} | ${signed(summary.p50 - hello.p50, 3)} | ${signed(median(roundAdded), 0)} | ${median(roundRatios).toFixed(2)}× |`;
    }),
    '',
  ].join('\n');
}

/**
 * The row every CPU ratio divides by: the baseline tree's key-cache variant when there is one
 * (before vs after in the same rounds; row 1 is then the baseline's own hello route, so each tree's
 * auth cost is its authenticated route minus its own hello), otherwise the memory-limits variant
 * without a cache.
 */
const ratioBase = baselineTree === undefined ? 1 : 2;
const ratioBaseLabel =
  baselineTree === undefined ? 'memory, no cache' : 'before issue 18 (memory limits, key cache)';

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

/**
 * Passport's own per-request cost, in process, without HTTP or a database: the way the guard runs a
 * strategy (`auth/passport-runner.ts`: `authenticate(name, { session: false }, callback)` on this
 * app's Authenticator, a `PassportStrategy` over a `Strategy` subclass calling `success`, as
 * `auth/credential-strategy.ts` does) against calling the same `validate` directly. Both resolve the
 * same principal; batches alternate.
 */
async function passportOverhead(): Promise<string> {
  const principal = { kind: 'user', id: 'u-1', role: 'admin', apiKeyId: 'k-1' };
  type Verify = (request: unknown, done: (error: unknown, result?: typeof principal) => void) => void;
  class HeaderStrategy extends passport.Strategy {
    constructor(
      readonly instance: passport.Authenticator,
      readonly verify: Verify,
    ) {
      super();
    }
    override authenticate(this: passport.StrategyCreated<this>, request: unknown): void {
      this.verify(request, (error, result) =>
        error === null || error === undefined ? this.success(result as Express.User, {}) : this.error(error),
      );
    }
  }
  class BenchStrategy extends PassportStrategy(HeaderStrategy, 'bench') {
    getPassportInstance(): passport.Authenticator {
      return this.instance;
    }
    validate(): Promise<typeof principal> {
      return Promise.resolve(principal);
    }
  }
  const authenticator = new passport.Authenticator();
  const strategy = new BenchStrategy(authenticator);
  const request = { raw: { rawHeaders: ['authorization', 'Bearer x'] } };
  const viaPassport = () =>
    new Promise<unknown>((resolve) => {
      const middleware = authenticator.authenticate(
        'bench',
        { session: false },
        (_error: unknown, user: unknown) => resolve(user),
      ) as (request: unknown, response: unknown, next: () => void) => void;
      middleware(request, {}, () => resolve(undefined));
    });
  const direct = () => strategy.validate();
  if ((await viaPassport()) !== (await direct())) throw new Error('passport and the direct call disagree');
  const batch = 20_000;
  const timings = { direct: [] as number[], passport: [] as number[] };
  for (let round = 0; round < 12; round += 1) {
    for (const [name, run] of [
      ['direct', direct],
      ['passport', viaPassport],
    ] as const) {
      const started = performance.now();
      for (let index = 0; index < batch; index += 1) await run();
      // The first two rounds warm the JIT up.
      if (round >= 2) timings[name].push(((performance.now() - started) * 1e6) / batch);
    }
  }
  const directNs = median(timings.direct);
  const passportNs = median(timings.passport);
  return [
    '### Passport per request, in process (no HTTP, no database)',
    '',
    '| way | ns/request (median of 10 batches of 20,000) |',
    '|---|---:|',
    `| \`validate()\` called directly | ${directNs.toFixed(0)} |`,
    `| through passport (\`authenticate\` + strategy object + callbacks) | ${passportNs.toFixed(0)} |`,
    `| **passport's own cost** | **+${(passportNs - directNs).toFixed(0)}** |`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  console.log(await passportOverhead());
  const folder = mkdtempSync(join(tmpdir(), 'agentdesk-bench-api-auth-'));
  const servers: Server[] = [];
  try {
    // The baseline first (row 1, the ratios' base), on a file of its own.
    const baselineFolder = baselineTree === undefined ? undefined : join(folder, 'baseline');
    const baseline =
      baselineTree === undefined || baselineFolder === undefined
        ? undefined
        : await startServer(baselineFolder, serverVariants[1].environment, baselineTree);
    if (baseline !== undefined) servers.push(baseline);
    const first = await startServer(folder, serverVariants[0].environment);
    servers.push(first);
    // The others share the first one's SQLite file (WAL) and its admin key.
    for (const variant of serverVariants.slice(1)) {
      servers.push(
        await startServer(folder, { ...variant.environment, AGENTDESK_ADMIN_KEY: first.adminKey }),
      );
    }
    const seedStart = performance.now();
    const seeded = await seed(first, true);
    const baselineSeeded = baseline === undefined ? undefined : await seed(baseline, false);
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
    const authRequest =
      (server: Server, data: Seeded = seeded, way: 'api-key' | 'console-session' = 'api-key') =>
      async () => {
        const id = data.sessionIds[next++ % data.sessionIds.length] ?? '';
        const headers: Record<string, string> =
          way === 'api-key'
            ? { authorization: `Bearer ${data.userKey}` }
            : { 'x-console-session': data.consoleToken ?? '' };
        return (await call(`${server.url}/v1/sessions/${id}`, 'GET', headers)).status;
      };
    const current = servers.slice(baseline === undefined ? 0 : 1);
    const variants: Variant[] = [
      {
        label: '`GET /` (public hello, Nest + Fastify)',
        server: first,
        request: async () => (await call(`${first.url}/`, 'GET', {})).status,
      },
      ...(baseline === undefined || baselineSeeded === undefined
        ? []
        : [
            {
              label: '`GET /` (public hello) before issue 18',
              server: baseline,
              request: async () => (await call(`${baseline.url}/`, 'GET', {})).status,
            },
            {
              hello: 1,
              label: `\`GET /v1/sessions/:id\`, before issue 18 (guard without passport), ${serverVariants[1].label}`,
              server: baseline,
              request: authRequest(baseline, baselineSeeded),
            },
          ]),
      ...serverVariants.map((variant, index) => ({
        hello: 0,
        label: `\`GET /v1/sessions/:id\`, ${variant.label}`,
        server: current[index]!,
        request: authRequest(current[index]!),
      })),
      {
        hello: 0,
        label: `\`GET /v1/sessions/:id\`, console session (X-Console-Session, read per request), ${serverVariants[1].label}`,
        server: current[1]!,
        request: authRequest(current[1]!, seeded, 'console-session'),
      },
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
