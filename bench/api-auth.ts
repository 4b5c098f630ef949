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
 * The two routes are measured in alternating rounds (A, B, A, B…) so drift hits both alike.
 *
 * Options (environment): BENCH_ROUNDS (default 6), BENCH_ROUND_MS (default 2000),
 * BENCH_CONCURRENCY (default 8), BENCH_SESSIONS (sessions of the measured user, default 1000),
 * BENCH_OTHER_USERS (default 20, each with BENCH_SESSIONS / 10 sessions).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 6);
const roundMs = Number(process.env['BENCH_ROUND_MS'] ?? 2000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const sessionsOfUser = Number(process.env['BENCH_SESSIONS'] ?? 1000);
const otherUsers = Number(process.env['BENCH_OTHER_USERS'] ?? 20);

const workspace = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Server {
  readonly url: string;
  readonly adminKey: string;
  readonly process: ChildProcess;
}

async function startServer(folder: string): Promise<Server> {
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
      const adminKey = /(adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43})/.exec(output)?.[1];
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
}

/** Runs `concurrency` closed-loop clients for `durationMs`, recording each request's latency. */
async function load(
  durationMs: number,
  clients: number,
  request: () => Promise<number>,
  sample: Sample,
): Promise<void> {
  const deadline = performance.now() + durationMs;
  const started = performance.now();
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
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function summarize(sample: Sample): { p50: number; p99: number; rps: number; count: number } {
  const sorted = [...sample.latenciesMs].sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    rps: (sample.requests / sample.elapsedMs) * 1000,
    count: sample.requests,
  };
}

async function measure(
  server: Server,
  userKey: string,
  sessionIds: string[],
  clients: number,
): Promise<{ hello: Sample; auth: Sample }> {
  const hello: Sample = { latenciesMs: [], requests: 0, elapsedMs: 0 };
  const auth: Sample = { latenciesMs: [], requests: 0, elapsedMs: 0 };
  const helloRequest = async () => (await call(`${server.url}/`, 'GET', {})).status;
  let next = 0;
  const authRequest = async () => {
    const id = sessionIds[next++ % sessionIds.length] ?? '';
    return (await call(`${server.url}/v1/sessions/${id}`, 'GET', { authorization: `Bearer ${userKey}` }))
      .status;
  };
  // Warm-up (JIT, SQLite page cache, connections), not recorded.
  const discard: Sample = { latenciesMs: [], requests: 0, elapsedMs: 0 };
  await load(1000, clients, helloRequest, discard);
  await load(1000, clients, authRequest, discard);
  for (let round = 0; round < rounds; round += 1) {
    await load(roundMs, clients, helloRequest, hello);
    await load(roundMs, clients, authRequest, auth);
  }
  return { hello, auth };
}

function table(title: string, results: { hello: Sample; auth: Sample }): string {
  const hello = summarize(results.hello);
  const auth = summarize(results.auth);
  const format = (value: number) => value.toFixed(3);
  return [
    `### ${title}`,
    '',
    '| route | requests | p50 (ms) | p99 (ms) | requests/s |',
    '|---|---:|---:|---:|---:|',
    `| \`GET /\` (public hello, Nest + Fastify) | ${hello.count} | ${format(hello.p50)} | ${format(hello.p99)} | ${hello.rps.toFixed(0)} |`,
    `| \`GET /v1/sessions/:id\` (API key + authz + owner-scoped read) | ${auth.count} | ${format(auth.p50)} | ${format(auth.p99)} | ${auth.rps.toFixed(0)} |`,
    `| **difference (auth + authz + read)** | | **+${format(auth.p50 - hello.p50)}** | **+${format(auth.p99 - hello.p99)}** | **${((auth.rps / hello.rps - 1) * 100).toFixed(1)} %** |`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agentdesk-bench-api-auth-'));
  const server = await startServer(folder);
  try {
    const seedStart = performance.now();
    const { userKey, sessionIds } = await seed(server);
    const totalSessions = sessionsOfUser + otherUsers * Math.ceil(sessionsOfUser / 10);
    console.log(
      `Seeded ${totalSessions} sessions of ${otherUsers + 1} users over HTTP in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    console.log(
      `Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}); server and load generator share them.`,
    );
    console.log(`Rounds: ${rounds} × ${roundMs} ms per route, alternating.\n`);
    console.log(
      table('One connection (latency without queueing)', await measure(server, userKey, sessionIds, 1)),
    );
    console.log(
      table(
        `${concurrency} keep-alive connections (throughput)`,
        await measure(server, userKey, sessionIds, concurrency),
      ),
    );
  } finally {
    agent.destroy();
    server.process.kill('SIGTERM');
    await new Promise((resolve) => server.process.once('exit', resolve));
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
