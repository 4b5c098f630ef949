import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatFailedTests,
  formatTimingTable,
  nxTaskTimings,
  playwrightFailedTests,
  playwrightFileTimings,
  vitestFailedTests,
  vitestFileTimings,
  type FileTiming,
} from './timing-table';

const workspace = '/work/repo';
/** A Playwright JSON report of the console's e2e folder with these top-level (file) suites. */
const consoleE2eReport = (suites: unknown[]) => ({
  config: { rootDir: `${workspace}/apps/console/e2e` },
  suites,
});

describe('test timing reports', () => {
  it('reads each file of a vitest JSON report: its path in the workspace and its seconds', () => {
    const report = {
      numTotalTests: 3,
      testResults: [
        {
          name: '/work/repo/apps/api/test/a.spec.ts',
          startTime: 1_000,
          endTime: 3_500,
          status: 'passed',
          assertionResults: [],
        },
        {
          name: '/work/repo/apps/api/src/b.spec.ts',
          startTime: 2_000,
          endTime: 2_100,
          status: 'failed',
          assertionResults: [],
        },
      ],
    };
    expect(vitestFileTimings('api', workspace, report)).toEqual([
      { project: 'api', file: 'apps/api/test/a.spec.ts', seconds: 2.5 },
      { project: 'api', file: 'apps/api/src/b.spec.ts', seconds: 0.1 },
    ]);
  });

  it('sums a Playwright file’s tests, nested describes and retries included', () => {
    const report = consoleE2eReport([
      {
        title: 'console.e2e.ts',
        file: 'console.e2e.ts',
        specs: [{ tests: [{ results: [{ duration: 1_000 }, { duration: 500 }] }] }],
        suites: [
          {
            title: 'sessions',
            file: 'console.e2e.ts',
            specs: [{ tests: [{ results: [{ duration: 250 }] }] }],
          },
        ],
      },
      { title: 'usage.e2e.ts', file: 'usage.e2e.ts', specs: [] },
    ]);
    expect(playwrightFileTimings('console', workspace, report)).toEqual([
      { project: 'console', file: 'apps/console/e2e/console.e2e.ts', seconds: 1.75 },
      { project: 'console', file: 'apps/console/e2e/usage.e2e.ts', seconds: 0 },
    ]);
  });

  it('reads Nx’s task profile relative to the run’s start, skipping its thread names', () => {
    const runStartedMs = 1_700_000_000_000;
    const profile = [
      { name: 'thread_name', ph: 'M', pid: 1, tid: 0, ts: 0, args: { name: 'Group #1' } },
      {
        name: 'api:test',
        ph: 'X',
        ts: (runStartedMs + 4_000) * 1_000,
        dur: 90_000_000,
        pid: 1,
        tid: 0,
        args: { target: { project: 'api', target: 'test' }, status: 'failure' },
      },
    ];
    expect(nxTaskTimings(profile, runStartedMs)).toEqual([
      { project: 'api', target: 'test', startedAt: 4, seconds: 90, status: 'failure' },
    ]);
  });

  it('refuses a report of another shape, naming what is wrong', () => {
    expect(() => vitestFileTimings('api', workspace, { results: [] })).toThrow(/testResults/);
  });

  it('lists the slowest files first, at most the limit, and every project once with its failed tasks', () => {
    const fileTiming = fc.record({
      project: fc.constantFrom('api', 'console', 'storage'),
      file: fc.stringMatching(/^[a-z]{1,8}\.spec\.ts$/),
      seconds: fc.double({ min: 0, max: 1_000, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(fileTiming, { maxLength: 40 }),
        fc.integer({ min: 1, max: 25 }),
        (files: FileTiming[], slowest) => {
          const tasks = [
            { project: 'api', target: 'test', startedAt: 1, seconds: 300, status: 'success' },
            { project: 'storage', target: 'lint', startedAt: 0, seconds: 9, status: 'failure' },
          ];
          const lines = formatTimingTable(files, tasks, { slowest, wallSeconds: 400 }).split('\n');
          const shown = lines
            .slice(2, 2 + Math.min(slowest, files.length))
            .map((line) => Number(line.trim().split(/\s+/)[0]));
          const expected = files
            .map((timing) => Number(timing.seconds.toFixed(1)))
            .sort((a, b) => b - a)
            .slice(0, slowest);
          expect(shown).toEqual(expected);
          const projectsAt = lines.findIndex((line) => line.startsWith('Projects'));
          const projectRows = lines.slice(projectsAt + 2, lines.indexOf('', projectsAt));
          // The longest test first; a failed task is named on its project's row.
          expect(projectRows.map((row) => row.split(/\s+/)[0])).toEqual(['api', 'storage']);
          expect(projectRows[0]).toMatch(/\s300\.0\s+1\.0\s+ok$/);
          expect(projectRows[1]).toMatch(/^storage\s+9\.0\s+-\s+-\s+-\s+lint failure$/);
          expect(lines.at(-1)).toBe('Whole run: 400.0 s');
        },
      ),
    );
  });

  it('lists a vitest report’s failed tests with their errors, and a file that failed before its tests', () => {
    const report = {
      testResults: [
        {
          name: '/work/repo/libs/compressor/src/a.spec.ts',
          startTime: 0,
          endTime: 1,
          status: 'failed',
          message: '',
          assertionResults: [
            { fullName: 'compressor keeps the budget', status: 'passed', failureMessages: [] },
            {
              fullName: 'compressor times out',
              status: 'failed',
              failureMessages: ['AssertionError: expected 0 to be 1\n    at a.spec.ts:3:4'],
            },
          ],
        },
        {
          name: '/work/repo/libs/compressor/src/b.spec.ts',
          startTime: 0,
          endTime: 1,
          status: 'failed',
          message: 'Failed to load url ./missing',
          assertionResults: [],
        },
        { name: '/work/repo/libs/compressor/src/c.spec.ts', startTime: 0, endTime: 1, status: 'passed' },
      ],
    };
    expect(vitestFailedTests('compressor', workspace, report)).toEqual([
      {
        project: 'compressor',
        file: 'libs/compressor/src/a.spec.ts',
        test: 'compressor times out',
        message: 'AssertionError: expected 0 to be 1\n    at a.spec.ts:3:4',
      },
      {
        project: 'compressor',
        file: 'libs/compressor/src/b.spec.ts',
        test: '',
        message: 'Failed to load url ./missing',
      },
    ]);
  });

  it('lists Playwright’s tests that failed every try, not those that passed on a retry', () => {
    const report = consoleE2eReport([
      {
        title: 'qa.e2e.ts',
        file: 'qa.e2e.ts',
        specs: [],
        suites: [
          {
            title: 'QA suites',
            file: 'qa.e2e.ts',
            specs: [
              {
                title: 'runs a suite',
                tests: [
                  {
                    status: 'unexpected',
                    results: [
                      { duration: 5, status: 'failed', error: { message: 'first try' } },
                      { duration: 5, status: 'failed', error: { message: 'locator timed out' } },
                    ],
                  },
                ],
              },
              {
                title: 'imports a suite',
                tests: [{ status: 'flaky', results: [{ duration: 5, status: 'failed' }, { duration: 5 }] }],
              },
            ],
          },
        ],
      },
    ]);
    expect(playwrightFailedTests('console', workspace, report)).toEqual([
      {
        project: 'console',
        file: 'apps/console/e2e/qa.e2e.ts',
        test: 'QA suites > runs a suite',
        message: 'locator timed out',
      },
    ]);
  });

  it('prints each failure’s file, name and first error lines, without colours or the runner’s frames', () => {
    const text = formatFailedTests(
      [
        {
          project: 'api',
          file: 'apps/api/test/x.spec.ts',
          test: 'x ends',
          message:
            '\u001b[31mError: timed out\u001b[39m\n    at file:///w/node_modules/@vitest/runner/x.js:1:1\nline 2\nline 3\nline 4',
        },
        { project: 'storage', file: 'libs/storage/src/y.spec.ts', test: '', message: 'import failed' },
      ],
      { lines: 2 },
    );
    expect(text.split('\n')).toEqual([
      'Failed tests (2)',
      '✗ api  apps/api/test/x.spec.ts  >  x ends',
      '    Error: timed out',
      '    line 2',
      '    …',
      '✗ storage  libs/storage/src/y.spec.ts',
      '    import failed',
    ]);
  });
});
