import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CellJson, CellSummaryJson, RunComparisonJson, SuiteRunJson } from '@agentdesk/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuiteCommand } from './run-command';
import { parseStrictXml, elementsOf, textOf } from './test-support/strict-xml';

// The command against a stand-in API answering contract-shaped JSON (the end-to-end test against
// the real API lives with the API's tests).

const cell = (caseId: string, targetIndex: number, status: CellSummaryJson['status']): CellSummaryJson => ({
  caseId,
  caseIndex: caseId === 'a' ? 0 : 1,
  targetIndex,
  status,
  latencyMs: 120,
  costMicros: 40,
  inputTokens: 10,
  outputTokens: 5,
  failedKinds: status === 'failed' ? ['equals'] : [],
  reason: status === 'error' ? 'provider answered 529' : null,
});

function runJson(status: SuiteRunJson['status'], done: number): SuiteRunJson {
  const cells = [
    cell('a', 0, 'passed'),
    cell('b', 0, 'failed'),
    cell('a', 1, 'passed'),
    cell('b', 1, 'error'),
  ];
  return {
    id: 'run-2',
    suiteId: 'suite-1',
    suiteName: 'Demo',
    suiteVersion: 3,
    status,
    createdBy: 'u-qa',
    createdAt: '2026-03-01T00:00:00.000Z',
    finishedAt: status === 'running' ? null : '2026-03-01T00:00:05.000Z',
    counts: { total: 4, done, passed: 2, failed: 1, errored: 1, cancelled: 0 },
    targets: [
      { model: 'gpt-4o-mini', strict: true },
      { model: 'gemini-2.0-flash', strict: true },
    ],
    cases: [
      { id: 'a', description: null },
      { id: 'b', description: null },
    ],
    cells,
    byTarget: [
      {
        key: 'gpt-4o-mini',
        passed: 1,
        judged: 2,
        rate: 0.5,
        costMicros: 80,
        latencyP50Ms: 120,
        latencyP95Ms: 120,
      },
      {
        key: 'gemini-2.0-flash',
        passed: 1,
        judged: 2,
        rate: 0.5,
        costMicros: 80,
        latencyP50Ms: 120,
        latencyP95Ms: 120,
      },
    ],
    byAssertionKind: [],
  };
}

const failedCell: CellJson = {
  ...cell('b', 0, 'failed'),
  runId: 'run-2',
  target: { model: 'gpt-4o-mini', strict: true },
  result: null,
  assertions: [
    { kind: 'schema', label: 'schema', passed: true, message: null },
    { kind: 'equals', label: '/category equals "account"', passed: false, message: 'got "technical"' },
  ],
  attempts: 1,
  finishedAt: '2026-03-01T00:00:04.000Z',
};

const comparison: RunComparisonJson = {
  runId: 'run-2',
  againstRunId: 'run-1',
  counts: {
    regression: 1,
    fix: 0,
    'unchanged-pass': 2,
    'unchanged-fail': 0,
    new: 0,
    removed: 0,
    'not-judged': 1,
  },
  cells: [{ caseId: 'b', target: 'gpt-4o-mini', change: 'regression', before: 'passed', after: 'failed' }],
  byTarget: [],
};

interface StandIn {
  url: string;
  requests: string[];
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function standIn(overrides: Record<string, [number, unknown]> = {}): Promise<StandIn> {
  const requests: string[] = [];
  let polls = 0;
  server = createServer((request, response) => {
    const route = `${request.method} ${request.url}`;
    requests.push(route);
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const override = Object.entries(overrides).find(([prefix]) => route.startsWith(prefix));
    if (override) return answer(...override[1]);
    if (request.headers.authorization !== 'Bearer adk_qa')
      return answer(401, { error: { code: 'unauthorized', message: 'no key' } });
    if (route.startsWith('GET /v1/qa/suites?name=') && !route.startsWith('GET /v1/qa/suites?name=Demo&'))
      return answer(200, { items: [], nextCursor: null });
    if (route.startsWith('GET /v1/qa/suites?name=Demo'))
      return answer(200, {
        items: [
          {
            ...runJson('running', 0),
            id: 'suite-1',
            name: 'Demo',
            description: null,
            latestVersion: 3,
            caseCount: 2,
            targetCount: 2,
            updatedAt: '2026-03-01T00:00:00.000Z',
            lastRun: null,
          },
        ],
        nextCursor: null,
      });
    if (route === 'POST /v1/qa/suites/suite-1/runs') return answer(201, runJson('running', 0));
    if (route === 'GET /v1/qa/runs/run-2') {
      polls += 1;
      return answer(200, polls < 2 ? runJson('running', 2) : runJson('completed', 4));
    }
    if (route === 'GET /v1/qa/runs/run-2/cells/b/0') return answer(200, failedCell);
    if (route.startsWith('GET /v1/qa/runs/run-2/compare?against=')) return answer(200, comparison);
    return answer(404, { error: { code: 'not-found', message: `no route ${route}` } });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, requests };
}

async function command(argv: string[], url: string) {
  const out: string[] = [];
  const err: string[] = [];
  const files = new Map<string, string>();
  const code = await runSuiteCommand(
    argv,
    { AGENTDESK_API_KEY: 'adk_qa', AGENTDESK_URL: url },
    {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      writeFile: async (path, text) => void files.set(path, text),
      sleep: async () => {},
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n'), files };
}

describe('npm run suite -- run', () => {
  it('starts the run, waits, prints the table and the failures, and writes the JUnit report', async () => {
    const api = await standIn();
    const result = await command(['run', 'Demo', '--junit', 'out.xml', '--concurrency', '2'], api.url);
    expect(result.code).toBe(0);
    expect(api.requests).toContain('POST /v1/qa/suites/suite-1/runs');
    expect(result.out).toMatch(/gpt-4o-mini\s+1\/2\s+50\.0%\s+\$0\.0001\s+120 ms\s+120 ms/);
    expect(result.out).toMatch(/all targets\s+2\/4\s+50\.0%/);
    expect(result.out).toContain('b on gpt-4o-mini: /category equals "account" (got "technical")');
    expect(result.out).toContain('b on gemini-2.0-flash: error: provider answered 529');
    const report = parseStrictXml(result.files.get('out.xml')!);
    const suites = elementsOf(report, 'testsuite');
    expect(suites.map((suite) => suite.attributes.name)).toEqual([
      'Demo — gpt-4o-mini',
      'Demo — gemini-2.0-flash',
    ]);
    const failure = elementsOf(elementsOf(suites[0]!, 'testcase')[1]!, 'failure')[0]!;
    expect(textOf(failure)).toBe('/category equals "account": got "technical"');
    expect(elementsOf(elementsOf(suites[1]!, 'testcase')[1]!, 'error')[0]!.attributes.message).toBe(
      'provider answered 529',
    );
  });

  it('exits 1 on a regression against the latest run, and below the pass-rate floor', async () => {
    const api = await standIn();
    const regressed = await command(['run', 'Demo', '--against', 'latest'], api.url);
    expect(regressed.code).toBe(1);
    expect(regressed.out).toContain('b on gpt-4o-mini: passed → failed');
    expect(api.requests).toContain('GET /v1/qa/runs/run-2/compare?against=latest');

    const floor = await command(['run', 'Demo', '--min-pass-rate', '0.9'], (await standIn()).url);
    expect(floor.code).toBe(1);
    expect(floor.out).toContain('Pass rate 50.0% is below the floor of 90.0%.');
    expect((await command(['run', 'Demo', '--min-pass-rate', '0.5'], (await standIn()).url)).code).toBe(0);
  });

  it('treats a first run with --against latest as having no regressions', async () => {
    const api = await standIn({
      'GET /v1/qa/runs/run-2/compare': [
        404,
        { error: { code: 'not-found', message: 'no earlier finished run of this suite' } },
      ],
    });
    const result = await command(['run', 'Demo', '--against', 'latest'], api.url);
    expect(result.code).toBe(0);
    expect(result.out).toContain('No earlier finished run');
  });

  it.each([
    ['an unknown suite', ['run', 'Nope'], {}, /no suite is named "Nope" \(or has that id\)/],
    [
      'a name that is no suite and no id (the API answers 400 to the id lookup)',
      ['run', 'No such suite'],
      {
        'GET /v1/qa/suites/No%20such%20suite': [
          400,
          { error: { code: 'VALIDATION_FAILED', message: 'path.id: must be an id as returned by this API' } },
        ],
      },
      /no suite is named "No such suite" \(or has that id\)/,
    ],
    [
      'a refused key',
      ['run', 'Demo'],
      { 'GET /v1/qa/suites': [403, { error: { code: 'forbidden', message: 'needs suites:read' } }] },
      /answered 403: needs suites:read/,
    ],
    [
      'an answer off the contract',
      ['run', 'Demo'],
      { 'POST /v1/qa/suites/suite-1/runs': [201, { id: 7 }] },
      /unexpected shape/,
    ],
    [
      'a cancelled run',
      ['run', 'Demo'],
      { 'GET /v1/qa/runs/run-2': [200, runJson('cancelled', 4)] },
      /was cancelled/,
    ],
  ] as const)('exits 2 on %s', async (_name, argv, overrides, message) => {
    const api = await standIn(overrides as Record<string, [number, unknown]>);
    const result = await command([...argv], api.url);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it('exits 2 when the API cannot be reached, or on a usage error', async () => {
    const api = await standIn();
    const url = api.url;
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const unreachable = await command(['run', 'Demo'], url);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toMatch(/cannot reach the API at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    const usage = await command(['run'], url);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/needs a suite name or id/);
  });
});
