import { relative } from 'node:path';
import { z } from 'zod';

/** How long one test file took, from its project's report. */
export interface FileTiming {
  readonly project: string;
  /** Relative to the workspace root. */
  readonly file: string;
  readonly seconds: number;
}

/** One Nx task of the run (`api:test`), from Nx's task profile (`NX_PROFILE`). */
export interface TaskTiming {
  readonly project: string;
  readonly target: string;
  /** When it started, seconds after the run began. */
  readonly startedAt: number;
  readonly seconds: number;
  readonly status: string;
}

/** A test that failed, with the start of its error: CI keeps only the end of a run's output. */
export interface FailedTest {
  readonly project: string;
  readonly file: string;
  /** The test's full name; empty when the file itself failed (an import error, a failed hook). */
  readonly test: string;
  readonly message: string;
}

const vitestReport = z.object({
  testResults: z.array(
    z.object({
      name: z.string(),
      startTime: z.number(),
      endTime: z.number(),
      status: z.string().optional(),
      message: z.string().optional(),
      assertionResults: z
        .array(
          z.object({
            fullName: z.string(),
            status: z.string(),
            failureMessages: z.array(z.string()).nullish(),
          }),
        )
        .optional(),
    }),
  ),
});

/** Vitest's JSON report (`--reporter=json`): each file's start and end. */
export function vitestFileTimings(project: string, workspace: string, report: unknown): FileTiming[] {
  return vitestReport.parse(report).testResults.map((result) => ({
    project,
    file: relative(workspace, result.name),
    seconds: (result.endTime - result.startTime) / 1_000,
  }));
}

/** The failed tests of a vitest JSON report, and files that failed before any test ran. */
export function vitestFailedTests(project: string, workspace: string, report: unknown): FailedTest[] {
  return vitestReport.parse(report).testResults.flatMap((result) => {
    const file = relative(workspace, result.name);
    const tests = (result.assertionResults ?? [])
      .filter((assertion) => assertion.status === 'failed')
      .map((assertion) => ({
        project,
        file,
        test: assertion.fullName,
        message: (assertion.failureMessages ?? []).join('\n'),
      }));
    if (tests.length === 0 && result.status === 'failed')
      return [{ project, file, test: '', message: result.message ?? '' }];
    return tests;
  });
}

interface PlaywrightResult {
  readonly duration: number;
  readonly status?: string | undefined;
  readonly error?: { readonly message?: string | undefined } | undefined;
}

interface PlaywrightSuite {
  readonly title?: string | undefined;
  readonly file?: string | undefined;
  readonly specs?:
    | ReadonlyArray<{
        readonly title?: string | undefined;
        readonly tests: ReadonlyArray<{
          readonly status?: string | undefined;
          readonly results: readonly PlaywrightResult[];
        }>;
      }>
    | undefined;
  readonly suites?: readonly PlaywrightSuite[] | undefined;
}

const playwrightSuite: z.ZodType<PlaywrightSuite> = z.lazy(() =>
  z.object({
    title: z.string().optional(),
    file: z.string().optional(),
    specs: z
      .array(
        z.object({
          title: z.string().optional(),
          tests: z.array(
            z.object({
              status: z.string().optional(),
              results: z.array(
                z.object({
                  duration: z.number(),
                  status: z.string().optional(),
                  error: z.object({ message: z.string().optional() }).optional(),
                }),
              ),
            }),
          ),
        }),
      )
      .optional(),
    suites: z.array(playwrightSuite).optional(),
  }),
);

const playwrightReport = z.object({
  config: z.object({ rootDir: z.string() }),
  suites: z.array(playwrightSuite),
});

function playwrightMilliseconds(suite: PlaywrightSuite): number {
  const own = (suite.specs ?? [])
    .flatMap((spec) => spec.tests)
    .flatMap((test) => test.results)
    .reduce((sum, result) => sum + result.duration, 0);
  return own + (suite.suites ?? []).reduce((sum, child) => sum + playwrightMilliseconds(child), 0);
}

/**
 * Playwright's JSON report: a file's time is the sum of its tests' runs (retries included); the
 * console runs one worker, so that is the time the file held the run. The global setup is not in it.
 */
export function playwrightFileTimings(project: string, workspace: string, report: unknown): FileTiming[] {
  const { config, suites } = playwrightReport.parse(report);
  return suites.map((suite) => ({
    project,
    file: relative(workspace, `${config.rootDir}/${suite.file ?? '(unnamed)'}`),
    seconds: playwrightMilliseconds(suite) / 1_000,
  }));
}

/** Playwright's tests that failed on every try (`unexpected`; a `flaky` test passed on a retry). */
export function playwrightFailedTests(project: string, workspace: string, report: unknown): FailedTest[] {
  const { config, suites } = playwrightReport.parse(report);
  const failed: FailedTest[] = [];
  const visit = (suite: PlaywrightSuite, file: string, titles: readonly string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        failed.push({
          project,
          file,
          test: [...titles, spec.title ?? ''].join(' > '),
          message: test.results.at(-1)?.error?.message ?? '',
        });
      }
    for (const child of suite.suites ?? []) visit(child, file, [...titles, child.title ?? '']);
  };
  for (const suite of suites)
    visit(suite, relative(workspace, `${config.rootDir}/${suite.file ?? '(unnamed)'}`), []);
  return failed;
}

const nxProfile = z.array(
  z.union([
    z.object({
      ph: z.literal('X'),
      ts: z.number(),
      dur: z.number(),
      args: z.object({ target: z.object({ project: z.string(), target: z.string() }), status: z.string() }),
    }),
    z.object({ ph: z.string() }),
  ]),
);

/** Nx's task profile (`NX_PROFILE=<file>`, microseconds since the epoch), relative to `runStartedMs`. */
export function nxTaskTimings(profile: unknown, runStartedMs: number): TaskTiming[] {
  const timings: TaskTiming[] = [];
  for (const event of nxProfile.parse(profile)) {
    if (!('args' in event)) continue;
    timings.push({
      project: event.args.target.project,
      target: event.args.target.target,
      startedAt: event.ts / 1_000_000 - runStartedMs / 1_000,
      seconds: event.dur / 1_000_000,
      status: event.args.status,
    });
  }
  return timings;
}

/** Nx's statuses of a task that passed: run now, or taken from a cache (`local-cache-kept-existing`, …). */
const succeeded = (status: string) => status === 'success' || status.includes('cache');

const seconds = (value: number) => value.toFixed(1).padStart(7);

/**
 * The table printed at the end of `npm test`: the slowest test files, then every project's tasks
 * (when each started and how long it took) — where the run's time went, and its critical path.
 */
export function formatTimingTable(
  files: readonly FileTiming[],
  tasks: readonly TaskTiming[],
  options: { readonly slowest?: number; readonly wallSeconds: number },
): string {
  const slowest = [...files].sort((a, b) => b.seconds - a.seconds).slice(0, options.slowest ?? 20);
  const projectWidth = Math.max(
    7,
    ...slowest.map((timing) => timing.project.length),
    ...tasks.map((task) => task.project.length),
  );
  const lines = [
    `Slowest ${slowest.length} of ${files.length} test files (seconds)`,
    `${'seconds'.padStart(7)}  ${'project'.padEnd(projectWidth)}  file`,
    ...slowest.map(
      (timing) => `${seconds(timing.seconds)}  ${timing.project.padEnd(projectWidth)}  ${timing.file}`,
    ),
    '',
    'Projects (seconds; "at": when the task started after the run began)',
    `${'project'.padEnd(projectWidth)}  ${['lint', 'typecheck', 'test', 'test at'].map((name) => name.padStart(10)).join('')}  status`,
  ];
  const projects = [...new Set(tasks.map((task) => task.project))].sort((a, b) => {
    const testSeconds = (project: string) =>
      tasks.find((task) => task.project === project && task.target === 'test')?.seconds ?? 0;
    return testSeconds(b) - testSeconds(a) || a.localeCompare(b);
  });
  for (const project of projects) {
    const of = (target: string) => tasks.find((task) => task.project === project && task.target === target);
    const cell = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(1)).padStart(10);
    const failed = tasks.filter((task) => task.project === project && !succeeded(task.status));
    lines.push(
      `${project.padEnd(projectWidth)}  ${cell(of('lint')?.seconds)}${cell(of('typecheck')?.seconds)}${cell(of('test')?.seconds)}${cell(of('test')?.startedAt)}  ${
        failed.length === 0 ? 'ok' : failed.map((task) => `${task.target} ${task.status}`).join(', ')
      }`,
    );
  }
  lines.push('', `Whole run: ${options.wallSeconds.toFixed(1)} s`);
  return lines.join('\n');
}

/**
 * Drops terminal colours and the test runner's own stack frames, and keeps an error's first lines:
 * the rest is in the run's output above.
 */
function firstLines(message: string, count: number): string[] {
  const lines = message
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => !/^\s+at .*node_modules/.test(line));
  return lines.length > count ? [...lines.slice(0, count), '…'] : lines;
}

/** The list printed after the table when tests failed: each one's file, name and first error lines. */
export function formatFailedTests(failed: readonly FailedTest[], options: { readonly lines?: number } = {}) {
  const blocks = failed.map((failure) =>
    [
      `✗ ${failure.project}  ${failure.file}${failure.test === '' ? '' : `  >  ${failure.test}`}`,
      ...firstLines(failure.message, options.lines ?? 8).map((line) => `    ${line}`),
    ].join('\n'),
  );
  return [`Failed tests (${failed.length})`, ...blocks].join('\n');
}
