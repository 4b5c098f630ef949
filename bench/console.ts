/**
 * The console's budgets (issue 10), measured against the production build under `next start`, the
 * real API on SQLite with 1M sessions, and Debian's Chromium:
 *
 *   npm run bench -- console           # builds (nx console:build, cached), seeds, measures, cleans up
 *
 * 1. First-load JavaScript per route: each route's HTML fetched signed in; the gzipped sizes of every
 *    `<script src>` it references, summed (what a browser downloads before the page is interactive).
 * 2. Server rendering of /sessions (and a filtered variant): sequential requests after a warm-up.
 * 3. Long tasks on the 2,000-message transcript: PerformanceObserver('longtask') during load and while
 *    scrolling to the last message.
 * Environment: BENCH_SESSIONS (default 1000000), BENCH_RUNS (default 200).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '@agentdesk/storage';
import { startApiProcess, type ApiProcess } from './support/api-process';
import { percentile } from './support/measure';
import { startNextProcess } from './support/next-process';
import type { ServerProcess } from './support/server-process';

const workspaceRoot = fileURLToPath(new URL('..', import.meta.url));
const sessionCount = Number(process.env['BENCH_SESSIONS'] ?? 1_000_000);
const userCount = Math.max(1, Math.round(sessionCount / 100));
const runs = Number(process.env['BENCH_RUNS'] ?? 200);
const warmupRuns = Math.max(20, Math.round(runs / 10));
const LONG_SESSION_MESSAGES = 2_000;
const FIRST_LOAD_BUDGET_BYTES = 200 * 1024;
const SSR_BUDGET_MS = 100;
const LONG_TASK_BUDGET_MS = 200;
const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---------- seeding ----------

/**
 * 1M sessions in one SQL statement per table (a recursive CTE, as bench/sessions-list.ts does):
 * one every 2 s from 2026-01-01, owners spread over `userCount` users and 10 portals, every 10th
 * closed, labels cycling through 8 topics.
 */
async function seedSessions(databaseUrl: string): Promise<void> {
  const database = openDatabase({ url: databaseUrl });
  try {
    await migrateToLatest(database);
    const numbers = (count: number) =>
      `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`;
    const hex = (expression: string, width: number) => `printf('%0${width}x', ${expression})`;
    const userId = (index: string) => `'00000000-0000-7000-8000-' || ${hex(index, 12)}`;
    const base = Date.UTC(2026, 0, 1);
    const created = `(${base} + i * 2000)`;
    const topics = ['invoice', 'refund', 'report', 'onboarding', 'bug', 'billing', 'travel', 'support'];
    const topic = `case i % 8 ${topics.map((name, index) => `when ${index} then '${name}'`).join(' ')} end`;
    const sessionId = [
      hex(`${created} / 65536`, 8),
      `'-'`,
      hex(`${created} % 65536`, 4),
      `'-7'`,
      hex('i % 4096', 3),
      `'-8'`,
      hex('(i / 4096) % 4096', 3),
      `'-'`,
      hex('i', 12),
    ].join(' || ');
    const owner = `(i * 7919) % ${userCount}`;
    await database.db.transaction().execute(async (transaction) => {
      await sql
        .raw(
          `${numbers(userCount)}
           insert into users (id, portal_id, external_id, display_name, created_at)
           select ${userId('i')}, 'portal-' || (i % 10), 'user-' || i, 'User ' || i, ${base} - 1000 + i from n`,
        )
        .execute(transaction);
      await sql
        .raw(
          `${numbers(sessionCount)}
           insert into sessions (id, owner_user_id, portal_id, label, status, model, system_prompt, metadata, created_at, updated_at)
           select ${sessionId}, ${userId(owner)}, 'portal-' || (${owner} % 10), 'Session ' || i || ' about ' || ${topic},
                  case when i % 10 = 0 then 'closed' else 'open' end, 'gpt-5', null, '{}', ${created}, ${created}
           from n`,
        )
        .execute(transaction);
    });
    await sql.raw('analyze').execute(database.db);
  } finally {
    await database.destroy();
  }
}

async function callApi<T>(api: ApiProcess, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** A user's session with 2,000 messages, written by the e2e's own seeding script (the storage lib). */
async function seedLongSession(api: ApiProcess, databaseUrl: string): Promise<string> {
  const { key } = await callApi<{ key: string }>(api, api.adminKey, 'POST', '/v1/admin/api-keys', {
    role: 'user',
    label: 'Bench user',
    externalId: 'bench-user',
    displayName: 'Bench user',
  });
  const me = await callApi<{ user: { id: string } }>(api, key, 'GET', '/v1/me');
  const session = await callApi<{ id: string }>(api, key, 'POST', '/v1/sessions', {
    label: 'Two thousand messages',
    model: 'gpt-test',
  });
  await promisify(execFile)(
    join(workspaceRoot, 'node_modules/.bin/tsx'),
    [
      'apps/console/e2e/support/seed-database.ts',
      JSON.stringify({
        databaseUrl,
        ownerUserId: me.user.id,
        longSessionId: session.id,
        longSessionMessages: LONG_SESSION_MESSAGES,
        reportSessionId: session.id,
        reportId: 'bench-report',
        reportLines: 1,
      }),
    ],
    { cwd: workspaceRoot, maxBuffer: 16 * 1024 * 1024 },
  );
  return session.id;
}

/** Signs in through the console's own form handler and returns the sealed cookie (`name=value`). */
async function signIn(consoleUrl: string, adminKey: string): Promise<string> {
  const response = await fetch(`${consoleUrl}/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: consoleUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ apiKey: adminKey }).toString(),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('agentdesk_console='));
  if (response.status !== 303 || cookie === undefined)
    throw new Error(`sign-in failed: ${response.status} ${response.headers.get('location')}`);
  return cookie.split(';')[0]!;
}

// ---------- 1. first-load JavaScript ----------

interface RouteWeight {
  route: string;
  scripts: { src: string; gzipBytes: number }[];
  gzipBytes: number;
  rawBytes: number;
}

async function firstLoadJavaScript(consoleUrl: string, cookie: string, path: string): Promise<RouteWeight> {
  const response = await fetch(`${consoleUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  const html = await response.text();
  const sources = [...new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]!))];
  const scripts = await Promise.all(
    sources.map(async (src) => {
      const body = Buffer.from(
        await (await fetch(new URL(src.replaceAll('&amp;', '&'), consoleUrl))).arrayBuffer(),
      );
      return { src, gzipBytes: gzipSync(body).length, rawBytes: body.length };
    }),
  );
  return {
    route: path,
    scripts: scripts
      .map(({ src, gzipBytes }) => ({ src, gzipBytes }))
      .sort((a, b) => b.gzipBytes - a.gzipBytes),
    gzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    rawBytes: scripts.reduce((sum, script) => sum + script.rawBytes, 0),
  };
}

// ---------- 2. server rendering ----------

async function serverRender(consoleUrl: string, cookie: string, path: string) {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${consoleUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
    await response.text();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return performance.now() - started;
  };
  for (let run = 0; run < warmupRuns; run += 1) await once();
  const durations: number[] = [];
  for (let run = 0; run < runs; run += 1) durations.push(await once());
  return {
    path,
    p50: percentile(durations, 0.5),
    p95: percentile(durations, 0.95),
    p99: percentile(durations, 0.99),
    max: Math.max(...durations),
  };
}

// ---------- 3. long tasks ----------

async function transcriptLongTasks(consoleUrl: string, cookie: string, sessionId: string) {
  // Playwright gives the launch a fresh temporary profile (user-data-dir) and deletes it on close.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    await context.addCookies([{ name, value, url: consoleUrl }]);
    const page = await context.newPage();
    // Browser code as text: this project compiles without the DOM library.
    await page.addInitScript({
      content: `
        window.__longTasks = [];
        window.__phase = 'load';
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            window.__longTasks.push({ phase: window.__phase, duration: entry.duration });
        }).observe({ type: 'longtask', buffered: true });`,
    });
    const started = performance.now();
    await page.goto(`${consoleUrl}/sessions/${sessionId}`);
    await page
      .getByText(`${LONG_SESSION_MESSAGES.toLocaleString('en-US')} messages`)
      .waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const loadedMs = performance.now() - started;
    await page.evaluate("window.__phase = 'scroll'");
    const last = page.getByRole('article', { name: `Assistant message ${LONG_SESSION_MESSAGES}` });
    const scrollStarted = performance.now();
    // Wheel steps as a reader would flick through, until the last message is in view.
    for (let step = 0; step < 2_000; step += 1) {
      await page.mouse.wheel(0, 3_000);
      await page.waitForTimeout(16);
      if (step % 10 === 9 && (await last.count()) > 0 && (await last.isVisible())) break;
    }
    await last.waitFor({ state: 'visible', timeout: 10_000 });
    const scrollMs = performance.now() - scrollStarted;
    // A control: a deliberate 120 ms task must be seen, or zero long tasks would prove nothing.
    await page.evaluate(`
      window.__phase = 'probe';
      setTimeout(() => { const until = performance.now() + 120; while (performance.now() < until); }, 0);`);
    await page.waitForTimeout(500); // let the last long-task entries arrive
    const tasks = (await page.evaluate('window.__longTasks')) as { phase: string; duration: number }[];
    const summarize = (phase: string) => {
      const durations = tasks.filter((task) => task.phase === phase).map((task) => task.duration);
      return {
        phase,
        count: durations.length,
        longest: durations.length ? Math.max(...durations) : 0,
        over200: durations.filter((duration) => duration > LONG_TASK_BUDGET_MS).length,
      };
    };
    return {
      loadedMs,
      scrollMs,
      phases: [summarize('load'), summarize('scroll')],
      probeSeen: summarize('probe').longest >= 100,
    };
  } finally {
    await browser.close();
  }
}

// ---------- main ----------

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function main(): Promise<void> {
  console.log('building the console (nx console:build)…');
  execFileSync(
    join(workspaceRoot, 'node_modules/.bin/nx'),
    ['run', 'console:build', '--outputStyle=static'],
    {
      cwd: workspaceRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NEXT_TELEMETRY_DISABLED: '1' },
    },
  );
  const directory = mkdtempSync(join(tmpdir(), 'agentdesk-bench-console-'));
  const databaseUrl = `sqlite:${join(directory, 'console.db')}`;
  const started: ServerProcess[] = [];
  try {
    const seedStarted = performance.now();
    await seedSessions(databaseUrl);
    console.log(
      `seeded ${sessionCount.toLocaleString('en')} sessions over ${userCount.toLocaleString('en')} users in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const api = await startApiProcess({ DATABASE_URL: databaseUrl, AGENTDESK_DEFAULT_MODEL: 'gpt-test' });
    started.push(api);
    const longSessionId = await seedLongSession(api, databaseUrl);
    const consoleServer = await startNextProcess({
      workspaceRoot,
      appDirectory: 'apps/console',
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        NODE_ENV: 'production',
        AGENTDESK_API_URL: api.url,
      },
    });
    started.push(consoleServer);
    const cookie = await signIn(consoleServer.url, api.adminKey);

    // 1. First-load JavaScript.
    const routes = [
      '/sign-in',
      '/sessions',
      `/sessions/${longSessionId}`,
      '/search',
      '/lab',
      '/sandbox',
      '/keys',
      '/audit',
      '/usage',
      '/users',
      '/prices',
      '/console-sessions',
    ];
    const weights: RouteWeight[] = [];
    for (const route of routes)
      weights.push(await firstLoadJavaScript(consoleServer.url, route === '/sign-in' ? '' : cookie, route));
    console.log(
      '\n| route | scripts | first-load JS gzip KB | raw KB | budget 200 KB | largest chunk (gzip KB) |',
    );
    console.log('|---|---:|---:|---:|---|---|');
    for (const weight of weights) {
      const largest = weight.scripts[0];
      console.log(
        `| ${weight.route.replace(longSessionId, '[id]')} | ${weight.scripts.length} | ${kb(weight.gzipBytes)} | ${kb(weight.rawBytes)} | ${weight.gzipBytes <= FIRST_LOAD_BUDGET_BYTES ? 'within' : `**over by ${kb(weight.gzipBytes - FIRST_LOAD_BUDGET_BYTES)} KB**`} | ${largest ? `${largest.src.split('/').pop()} (${kb(largest.gzipBytes)})` : ''} |`,
      );
    }
    const heaviest = [...weights].sort((a, b) => b.gzipBytes - a.gzipBytes)[0]!;
    console.log(
      `\nchunks of the heaviest route (${heaviest.route.replace(longSessionId, '[id]')}), gzip KB:`,
    );
    for (const script of heaviest.scripts)
      console.log(`- ${script.src.split('?')[0]}: ${kb(script.gzipBytes)}`);

    // 2. Server rendering.
    console.log(`\n| page | runs | p50 ms | p95 ms | p99 ms | max ms | budget p95 ≤ ${SSR_BUDGET_MS} ms |`);
    console.log('|---|---:|---:|---:|---:|---:|---|');
    for (const path of [
      '/sessions',
      '/sessions?status=closed&label=report',
      '/sessions?label=refund&from=2026-01-05&to=2026-01-10',
    ]) {
      const result = await serverRender(consoleServer.url, cookie, path);
      console.log(
        `| ${path} | ${runs} | ${result.p50.toFixed(1)} | ${result.p95.toFixed(1)} | ${result.p99.toFixed(1)} | ${result.max.toFixed(1)} | ${result.p95 <= SSR_BUDGET_MS ? 'within' : `**over by ${(result.p95 - SSR_BUDGET_MS).toFixed(1)} ms**`} |`,
      );
    }

    // 3. Long tasks.
    const longTasks = await transcriptLongTasks(consoleServer.url, cookie, longSessionId);
    console.log(
      `\n2,000-message transcript: shown in ${longTasks.loadedMs.toFixed(0)} ms (to network idle), scrolled to the last message in ${longTasks.scrollMs.toFixed(0)} ms`,
    );
    console.log(`| phase | long tasks (> 50 ms) | longest ms | over ${LONG_TASK_BUDGET_MS} ms |`);
    console.log('|---|---:|---:|---:|');
    for (const phase of longTasks.phases)
      console.log(`| ${phase.phase} | ${phase.count} | ${phase.longest.toFixed(0)} | ${phase.over200} |`);
    console.log(
      `observer control (a deliberate 120 ms task): ${longTasks.probeSeen ? 'seen' : 'NOT seen — the counts above are not trustworthy'}`,
    );
  } finally {
    for (const process of started.reverse()) await process.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
