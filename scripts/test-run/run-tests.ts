/**
 * `npm test` after its install steps: lint, typecheck and test of every project through Nx, then a
 * table of where the time went (the 20 slowest test files, each project's tasks).
 *
 * Two Nx runs side by side: the two apps' tasks, and the libraries' and tools'. `api:test` is the
 * run's longest task by far (most of its files start real API processes, PostgreSQL databases and
 * Docker engines, and wait on them), and in one Nx run it started last: Nx orders tasks by how many
 * others depend on them, and no project depends on the API, so it alone decided the run's length.
 * The apps' run starts with the console's build (the console's Playwright tests and `npm start`'s
 * tests in `api:test` need it), then runs the two apps' tests side by side; the libraries' run
 * goes on beside it, with the workspace's lint and typecheck: one ESLint and one Prettier over the
 * whole workspace, one TypeScript program of every server-side project (thirteen of each, every
 * project's typecheck compiling its dependencies again, cost as much CPU as the tests they ran
 * beside). The console's types are checked by its build (`next build` checks its tsconfig's whole
 * program, tests included), so its `typecheck` target, for a developer without a build, is not run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  formatFailedTests,
  formatTimingTable,
  nxTaskTimings,
  playwrightFailedTests,
  playwrightFileTimings,
  vitestFailedTests,
  vitestFileTimings,
  type FailedTest,
  type FileTiming,
  type TaskTiming,
} from './timing-table';

const workspace = fileURLToPath(new URL('../..', import.meta.url));
const timingsDirectory = join(workspace, 'dist', 'test-timings');
const nxBin = join(workspace, 'node_modules', '.bin', 'nx');

interface Lane {
  readonly name: string;
  readonly args: readonly string[];
}

const lanes: readonly Lane[] = [
  {
    name: 'apps',
    args: ['run-many', '-t', 'test', '--projects=api,console', '--parallel=2'],
  },
  {
    name: 'libs',
    args: ['run-many', '-t', 'lint', 'typecheck', 'test', '--exclude=api,console', '--parallel=2'],
  },
];

function runLane(lane: Lane): Promise<number> {
  const child = spawn(nxBin, [...lane.args, '--outputStyle=stream'], {
    cwd: workspace,
    stdio: 'inherit',
    env: {
      ...process.env,
      AGENTDESK_TEST_TIMINGS_DIR: timingsDirectory,
      // Nx joins this to the working directory: relative, so it lands in the timings folder.
      NX_PROFILE: relative(workspace, join(timingsDirectory, `nx-${lane.name}.json`)),
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`npm test: could not start Nx for the ${lane.name} lane: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

interface RunReports {
  readonly files: FileTiming[];
  readonly tasks: TaskTiming[];
  readonly failed: FailedTest[];
}

/** The test runners' JSON reports in the timings folder (`<project><suffix>`), and how to read each. */
const testReports = [
  { suffix: '.vitest.json', timings: vitestFileTimings, failures: vitestFailedTests },
  { suffix: '.playwright.json', timings: playwrightFileTimings, failures: playwrightFailedTests },
] as const;

/** Whatever reports the run left (a project that crashed leaves none); a broken one is named, not fatal. */
function collectReports(runStartedMs: number): RunReports {
  const reports: RunReports = { files: [], tasks: [], failed: [] };
  if (!existsSync(timingsDirectory)) return reports;
  for (const name of readdirSync(timingsDirectory).sort()) {
    const file = join(timingsDirectory, name);
    try {
      if (name.startsWith('nx-')) {
        reports.tasks.push(...nxTaskTimings(readJson(file), runStartedMs));
        continue;
      }
      const reader = testReports.find((candidate) => name.endsWith(candidate.suffix));
      if (reader === undefined) continue;
      const project = name.slice(0, -reader.suffix.length);
      const report = readJson(file);
      reports.files.push(...reader.timings(project, workspace, report));
      reports.failed.push(...reader.failures(project, workspace, report));
    } catch (error) {
      console.error(
        `npm test: the timing report ${relative(workspace, file)} could not be read: ${String(error)}`,
      );
    }
  }
  return reports;
}

async function main(): Promise<void> {
  rmSync(timingsDirectory, { recursive: true, force: true });
  mkdirSync(timingsDirectory, { recursive: true });
  const runStartedMs = Date.now();
  const codes = await Promise.all(lanes.map(runLane));
  const { files, tasks, failed } = collectReports(runStartedMs);
  console.log(`\n${formatTimingTable(files, tasks, { wallSeconds: (Date.now() - runStartedMs) / 1_000 })}`);
  // Last, so a log cut to its tail (CI keeps the end) still says which tests failed and why.
  if (failed.length > 0) console.error(`\n${formatFailedTests(failed)}`);
  const failedLanes = lanes.filter((_, index) => codes[index] !== 0).map((lane) => lane.name);
  if (failedLanes.length > 0) {
    console.error(
      `\nnpm test: failed (${failedLanes.join(' and ')} lane): the failed tests are listed above, the tasks' whole output before the table.`,
    );
    process.exitCode = 1;
  }
}

void main();
