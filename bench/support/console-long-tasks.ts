/**
 * Long tasks of console pages in Debian's Chromium (as bench/console.ts measures the transcript):
 * each load in a fresh context (cold caches), PerformanceObserver('longtask') from the first script
 * on, and a deliberate 120 ms task afterwards as the control — zero long tasks prove nothing unless
 * the control is seen. With `profile`, a Chromium trace of the load says what the long tasks spent
 * their time on (self time by trace event: parsing, layout, style, script…).
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from '@playwright/test';

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

/** Signs in through the console's own form handler and returns the sealed cookie (`name=value`). */
export async function signIn(consoleUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${consoleUrl}/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: consoleUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ apiKey }).toString(),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('agentdesk_console='));
  if (response.status !== 303 || cookie === undefined)
    throw new Error(`sign-in failed: ${response.status} ${response.headers.get('location')}`);
  return cookie.split(';')[0]!;
}

export interface PageLoadTasks {
  readonly path: string;
  /** To network idle after the page's element showed. */
  readonly loadedMs: number;
  /** Durations of the long tasks (> 50 ms) during the load. */
  readonly tasks: number[];
  readonly controlSeen: boolean;
  /** With `profile`: self time by trace event inside the load's long tasks, largest first. */
  readonly profile?: Array<{ name: string; ms: number }>;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/**
 * Self time by trace event name (ParseHTML, Layout, FunctionCall…) inside the renderer main
 * thread's long tasks (`RunTask` over 50 ms): what the longest tasks spent their time on.
 */
function longTaskBreakdown(
  events: readonly TraceEvent[],
  count: number,
): Array<{ name: string; ms: number }> {
  const mainThreads = new Set(
    events
      .filter(
        (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const complete = events
    .filter(
      (event) => event.ph === 'X' && event.dur !== undefined && mainThreads.has(`${event.pid}:${event.tid}`),
    )
    .sort((left, right) => left.ts - right.ts || right.dur! - left.dur!);
  const self = new Map<string, number>();
  // Per thread, a stack of open events: an event's self time is its duration minus its children's.
  const stacks = new Map<string, Array<{ event: TraceEvent; selfUs: number; inLongTask: boolean }>>();
  const close = (entry: { event: TraceEvent; selfUs: number; inLongTask: boolean }) => {
    if (entry.inLongTask) self.set(entry.event.name, (self.get(entry.event.name) ?? 0) + entry.selfUs / 1000);
  };
  for (const event of complete) {
    const thread = `${event.pid}:${event.tid}`;
    const stack = stacks.get(thread) ?? [];
    stacks.set(thread, stack);
    while (stack.length > 0 && stack.at(-1)!.event.ts + stack.at(-1)!.event.dur! <= event.ts)
      close(stack.pop()!);
    const parent = stack.at(-1);
    if (parent !== undefined) parent.selfUs -= event.dur!;
    const inLongTask = parent?.inLongTask ?? (event.name === 'RunTask' && event.dur! > 50_000);
    stack.push({ event, selfUs: event.dur!, inLongTask });
  }
  for (const stack of stacks.values()) while (stack.length > 0) close(stack.pop()!);
  return [...self.entries()]
    .sort((left, right) => right[1] - left[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms }));
}

/**
 * Loads each path `loads` times (paths interleaved, each load in a fresh context), waiting for
 * `ready` and then network idle.
 */
export async function pageLongTasks(options: {
  consoleUrl: string;
  cookie: string;
  paths: readonly string[];
  loads: number;
  /** A CSS selector of what the page shows once its content is there. */
  ready: string;
  profile: boolean;
  /** With it: a full-page PNG of each path after its measured load (the last load's stays), to look at. */
  screenshotDirectory?: string;
}): Promise<PageLoadTasks[]> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags });
  try {
    const results: PageLoadTasks[] = [];
    for (let load = 0; load < options.loads; load++) {
      for (const path of options.paths) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const separator = options.cookie.indexOf('=');
        await context.addCookies([
          {
            name: options.cookie.slice(0, separator),
            value: options.cookie.slice(separator + 1),
            url: options.consoleUrl,
          },
        ]);
        const page = await context.newPage();
        // Browser code as text: this project compiles without the DOM library.
        await page.addInitScript({
          content: `
            window.__longTasks = [];
            window.__phase = 'load';
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) window.__longTasks.push({ phase: window.__phase, duration: entry.duration });
            }).observe({ type: 'longtask', buffered: true });`,
        });
        if (options.profile)
          await browser.startTracing(page, {
            categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink'],
          });
        const started = performance.now();
        await page.goto(`${options.consoleUrl}${path}`);
        // A CSS selector: Playwright's role queries walk the whole DOM in the page, long tasks of their own.
        await page.locator(options.ready).first().waitFor({ timeout: 60_000 });
        await page.waitForLoadState('networkidle');
        const loadedMs = performance.now() - started;
        const profile = options.profile
          ? longTaskBreakdown(
              (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] })
                .traceEvents,
              12,
            )
          : undefined;
        await page.evaluate(`
          window.__phase = 'probe';
          setTimeout(() => { const until = performance.now() + 120; while (performance.now() < until); }, 0);`);
        await page.waitForTimeout(500); // let the last long-task entries arrive
        const tasks = (await page.evaluate('window.__longTasks')) as { phase: string; duration: number }[];
        if (options.screenshotDirectory !== undefined)
          await page.screenshot({
            path: join(
              options.screenshotDirectory,
              `${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.png`,
            ),
            fullPage: true,
          });
        results.push({
          path,
          loadedMs,
          tasks: tasks.filter((task) => task.phase === 'load').map((task) => task.duration),
          controlSeen: tasks.some((task) => task.phase === 'probe' && task.duration >= 100),
          ...(profile !== undefined && { profile }),
        });
        await context.close();
      }
    }
    return results;
  } finally {
    await browser.close();
  }
}
