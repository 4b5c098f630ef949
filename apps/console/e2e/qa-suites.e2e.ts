import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

/*
 * A QA engineer's day with suites, on the real stack (API on SQLite, the provider emulator): write
 * a suite, import a promptfoo file, run the suite and watch it fill in, open the matrix and a cell,
 * make one model worse through the emulator's variation control, run again and find the regression;
 * then run it from the suite CLI as CI would and read its exit codes, summary and JUnit report.
 */

const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));

const suiteName = `Ticket triage ${Date.now().toString(36)}`;
const caseIds = ['printer-down', 'refund-request', 'password-reset'] as const;
const ticketSchema = {
  type: 'object',
  properties: { priority: { type: 'string', enum: ['low', 'high'] }, summary: { type: 'string' } },
  required: ['priority', 'summary'],
  additionalProperties: false,
};

/** The suite as typed into the editor (JSON is YAML too, so the YAML format reads it). */
const suiteText = [
  `name: ${suiteName}`,
  'targets:',
  '  - model: gpt-test',
  '  - model: claude-test',
  '    temperature: 0',
  'cases:',
  ...caseIds.flatMap((id) => [
    `  - id: ${id}`,
    `    prompt: "Triage this ticket: ${id.replace('-', ' ')}"`,
    `    schema: ${JSON.stringify(ticketSchema)}`,
    '    assertions:',
    '      - kind: one-of',
    '        pointer: /priority',
    '        values: [low, high]',
  ]),
].join('\n');

const promptfooText = `description: Invoice extraction ${Date.now().toString(36)}
prompts:
  - "Extract the invoice fields from: {{invoice}}"
providers:
  - openai:chat:gpt-test
tests:
  - description: Total is right
    vars:
      invoice: "ACME, total 12.50 EUR"
    assert:
      - type: is-json
        value: { type: object, required: [total], properties: { total: { type: number } } }
      - type: llm-rubric
        value: is polite
`;

async function emulatorCall(method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${process.env.E2E_EMULATOR_URL}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} ${path}`).toBe(true);
}

/** Every gpt-test answer breaks the ticket schema (seeded, so the same breakage each run). */
async function makeGptTestWorse(): Promise<void> {
  await emulatorCall('PUT', '/_emulator/variation', {
    seed: 'console-e2e',
    rates: { 'gpt-test': 1 },
    kinds: ['invalid-enum', 'missing-required', 'wrong-type'],
  });
}

/** A call to the API with `key`, as the suite CLI or CI would make it. */
async function qaApi<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${process.env.E2E_API_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

async function newQaKey(): Promise<string> {
  const response = await fetch(`${process.env.E2E_API_URL}/v1/admin/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seeded().adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      role: 'qa',
      label: 'QA engineer',
      externalId: 'qa-engineer',
      displayName: 'Robin QA',
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

/** Signs in with a key whose role reads no sessions: the console lands elsewhere, then opens /suites. */
async function signInAsQa(page: Page, key: string): Promise<void> {
  await page.goto(consoleUrl('/sign-in'));
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await page.goto(consoleUrl('/suites'));
  await expect(page.getByRole('heading', { level: 1, name: 'QA suites' })).toBeVisible();
}

const progress = (page: Page) => page.getByRole('progressbar', { name: 'Run progress' });

async function expectRunFinished(page: Page, cells: number): Promise<void> {
  await expect(progress(page)).toHaveAttribute('aria-valuenow', String(cells), { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: /^Progress/ })).toContainText('completed');
}

interface CliOutcome {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `npm run suite -- <args>` as CI runs it: the real CLI in a child process, on the e2e stack's API. */
function runSuiteCli(args: readonly string[], apiKey: string): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/suite.ts', ...args, '--url', process.env.E2E_API_URL ?? ''],
      { cwd: workspaceRoot, env: { ...process.env, AGENTDESK_API_KEY: apiKey }, stdio: 'pipe' },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** The id of the run the CLI started, from its progress line "… (run <id>)". */
function startedRunId(outcome: CliOutcome): string {
  const runId = /\(run ([^)\s]+)\)/.exec(outcome.stderr)?.[1];
  if (runId === undefined) throw new Error(`the CLI printed no run id:\n${outcome.stderr}`);
  return runId;
}

/** A JUnit report as Chromium's XML parser reads it (a `parsererror` element when not well-formed). */
interface ParsedJUnit {
  readonly parserError: string | null;
  readonly root: string;
  readonly suites: readonly {
    readonly name: string | null;
    readonly tests: string | null;
    readonly failures: string | null;
    readonly cases: readonly {
      readonly name: string | null;
      readonly failure: { readonly message: string | null; readonly text: string } | null;
    }[];
  }[];
}

function parseJUnitInBrowser(page: Page, xml: string): Promise<ParsedJUnit> {
  return page.evaluate((text): ParsedJUnit => {
    const report = new DOMParser().parseFromString(text, 'application/xml');
    const childrenNamed = (parent: Element, name: string) =>
      [...parent.children].filter((child) => child.tagName === name);
    const root = report.documentElement;
    return {
      parserError: report.getElementsByTagName('parsererror')[0]?.textContent ?? null,
      root: root.tagName,
      suites: childrenNamed(root, 'testsuite').map((suite) => ({
        name: suite.getAttribute('name'),
        tests: suite.getAttribute('tests'),
        failures: suite.getAttribute('failures'),
        cases: childrenNamed(suite, 'testcase').map((testCase) => {
          const failure = childrenNamed(testCase, 'failure')[0];
          return {
            name: testCase.getAttribute('name'),
            failure:
              failure === undefined
                ? null
                : { message: failure.getAttribute('message'), text: failure.textContent ?? '' },
          };
        }),
      })),
    };
  }, xml);
}

/** A cell's failed assertions' messages as the API reports them. */
async function failedAssertionMessages(
  apiKey: string,
  runId: string,
  caseId: string,
  targetIndex: number,
): Promise<string[]> {
  const response = await fetch(
    `${process.env.E2E_API_URL}/v1/qa/runs/${runId}/cells/${encodeURIComponent(caseId)}/${targetIndex}`,
    { headers: { authorization: `Bearer ${apiKey}` } },
  );
  expect(response.status).toBe(200);
  const cell = (await response.json()) as {
    assertions: { label: string; passed: boolean | null; message: string | null }[];
  };
  return cell.assertions
    .filter((outcome) => outcome.passed !== true)
    .map((outcome) => (outcome.message === null ? outcome.label : `${outcome.label}: ${outcome.message}`));
}

test.describe.serial('a QA engineer with suites', () => {
  let qaKey = '';
  let suiteUrl = '';

  test.beforeAll(async () => {
    qaKey = await newQaKey();
    await emulatorCall('DELETE', '/_emulator/variation');
  });

  test.afterAll(async () => {
    await emulatorCall('DELETE', '/_emulator/variation');
  });

  test('writes a suite, sees its problems by line, and saves it', async ({ page }, testInfo) => {
    await signInAsQa(page, qaKey);
    await expect(
      page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Suites' }),
    ).toBeVisible();
    await page.locator('summary', { hasText: 'New suite' }).click();
    const editor = page.getByLabel('Suite definition');
    await expect(editor).toHaveValue(/name: Review summary/);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'suites');

    await editor.fill(suiteText.replace('pointer: /priority', 'pointer: priority'));
    await page.getByRole('button', { name: 'Create suite' }).click();
    const problems = page.getByRole('list', { name: 'Problems of the suite' });
    await expect(problems.getByRole('listitem')).toContainText(['line 12, cases[0].assertions[0].pointer:']);

    await editor.fill(suiteText);
    await page.getByLabel('Note for this version').fill('three tickets on two models');
    await page.getByRole('button', { name: 'Create suite' }).click();
    await expect(page).toHaveURL(/\/suites\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 1, name: suiteName })).toBeVisible();
    suiteUrl = page.url();
    const targets = page.getByRole('table', { name: 'Targets and their settings' });
    await expect(targets.getByRole('row')).toHaveCount(3);
    await expect(page.getByRole('table', { name: 'Cases and what they assert' })).toContainText('one-of');
    await expect(page.getByRole('list', { name: 'Versions, newest first' })).toContainText(
      'three tickets on two models',
    );
    await expect(page.getByRole('link', { name: 'YAML' })).toHaveAttribute(
      'href',
      /\/export\?version=1&format=yaml$/,
    );
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'suite');
  });

  test('imports a promptfoo file and reads what was not carried over', async ({ page }) => {
    await signInAsQa(page, qaKey);
    await page.locator('summary', { hasText: 'Import' }).click();
    const form = page.getByRole('form', { name: 'Import a suite' });
    await form.getByLabel('Format').selectOption('promptfoo');
    await form.getByLabel('Or paste the file’s text').fill(promptfooText);
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    const unsupported = page.getByRole('list', { name: 'Unsupported parts' });
    await expect(unsupported).toContainText('llm-rubric');
    await expect(page.getByRole('status').getByRole('link', { name: /Invoice extraction/ })).toBeVisible();
    await expectAccessible(page);
  });

  test('runs the suite and watches it fill in live, then opens a cell', async ({ page }, testInfo) => {
    // Claude answers slowly, so the page opens while the run is still going.
    await emulatorCall('POST', '/_emulator/script', [
      {
        kind: 'json',
        value: { priority: 'high', summary: 'slow but right' },
        match: { provider: 'anthropic' },
        delayMs: 2_500,
        times: caseIds.length,
      },
    ]);
    await signInAsQa(page, qaKey);
    await page.goto(suiteUrl);
    await page.getByRole('button', { name: 'Run (6 cells)' }).click();
    await expect(page).toHaveURL(/\/suites\/runs\/[^/?]+$/);
    await expect(page.getByRole('heading', { level: 1, name: `Run of ${suiteName} v1` })).toBeVisible();
    await expect(progress(page)).toHaveAttribute('aria-valuemax', '6');
    const before = Number(await progress(page).getAttribute('aria-valuenow'));
    expect(before).toBeLessThan(6);
    await expect(page.getByText('Live: cells fill in as they finish.')).toBeVisible();
    await keepScreenshot(page, testInfo, 'run-live');
    // No reload: the stream fills the matrix and the counts.
    await expectRunFinished(page, 6);
    const matrix = page.getByRole('table', { name: /Results: a row per case/ });
    await expect(matrix.getByRole('link', { name: 'passed', exact: true })).toHaveCount(6);
    await expect(page.getByRole('table', { name: 'Pass rate, cost and latency per target' })).toContainText(
      '100.0 %',
    );
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'run');

    await matrix
      .getByRole('row', { name: /refund-request/ })
      .getByRole('link', { name: 'passed' })
      .nth(1)
      .click();
    const detail = page.getByRole('region', { name: 'Case refund-request on claude-test' });
    await expect(detail).toBeVisible();
    await expect(
      detail.getByRole('table', { name: 'Assertions of refund-request on claude-test' }),
    ).toContainText('one-of');
    await expect(detail.getByLabel('Parsed JSON of claude-test')).toContainText('slow but right');
    await expectAccessible(page);

    await matrix.getByRole('link', { name: 'printer-down' }).click();
    const across = page.getByRole('region', { name: 'Case printer-down across targets' });
    await expect(across.getByRole('article')).toHaveCount(2);
  });

  test('makes gpt-test worse in the emulator, runs again and finds the regression', async ({
    page,
  }, testInfo) => {
    await makeGptTestWorse();
    await signInAsQa(page, qaKey);
    await page.goto(suiteUrl);
    await page.getByRole('button', { name: 'Run (6 cells)' }).click();
    await expect(page).toHaveURL(/\/suites\/runs\/[^/?]+$/);
    await expectRunFinished(page, 6);
    const matrix = page.getByRole('table', { name: /Results: a row per case/ });
    await expect(matrix.getByRole('link', { name: /^failed/ })).toHaveCount(3);

    await expect(page.getByRole('combobox', { name: 'Compare with' })).toHaveValue('latest');
    await page.getByRole('button', { name: 'Compare' }).click();
    await expect(page).toHaveURL(/against=latest/);
    await expect(page.getByRole('region', { name: 'Compare with an earlier run' })).toContainText(
      '3 regressions',
    );
    await expect(matrix.getByText('▼ regression')).toHaveCount(3);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'compare');

    await page.getByLabel('Only changes').check();
    await page.getByRole('button', { name: 'Compare' }).click();
    await expect(matrix.getByRole('row')).toHaveCount(1 + caseIds.length);

    await matrix
      .getByRole('row', { name: /password-reset/ })
      .getByRole('link', { name: /regression/ })
      .click();
    const detail = page.getByRole('region', { name: 'Case password-reset on gpt-test' });
    await expect(detail.getByRole('list', { name: 'Differences between the two outputs' })).toBeVisible();
    await expect(detail.getByRole('region', { name: 'Earlier run’s cell' })).toContainText('passed');
    await expect(detail.getByRole('region', { name: 'This run’s cell' })).toContainText('failed');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'compare-cell');
  });

  test('keeps a lab run as a new case of the suite', async ({ page }) => {
    const response = await fetch(`${process.env.E2E_API_URL}/v1/admin/structured-output/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${qaKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Lab ticket triage',
        schema: ticketSchema,
        prompt: 'Triage this ticket: the VPN drops every hour',
        strict: true,
        targets: [{ model: 'gpt-test' }],
      }),
    });
    expect(response.ok).toBe(true);
    const labRun = (await response.json()) as { id: string };
    await signInAsQa(page, qaKey);
    await page.goto(consoleUrl(`/lab/runs/${labRun.id}`));
    const form = page.getByRole('form', { name: 'Save as a case of a suite' });
    await form.getByLabel('Suite').selectOption({ label: `${suiteName} (v1)` });
    await expect(form.getByLabel('Case id')).toHaveValue('lab-ticket-triage');
    await form.getByRole('button', { name: 'Save as case' }).click();
    await expect(form.getByRole('status')).toContainText(
      `Saved as case lab-ticket-triage in ${suiteName} v2`,
    );
    await expectAccessible(page);
    await page.goto(suiteUrl);
    await expect(page.getByRole('table', { name: 'Cases and what they assert' })).toContainText(
      'lab-ticket-triage',
    );
  });

  test('a viewer reads the suites but may not write or run them', async ({ page }) => {
    await signIn(page, seeded().viewerKey);
    await page.goto(suiteUrl);
    await expect(page.getByRole('heading', { level: 1, name: suiteName })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Run/ })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Edit' })).toHaveCount(0);
    await page.goto(consoleUrl('/suites'));
    await expect(page.locator('summary', { hasText: 'New suite' })).toHaveCount(0);
  });

  test('a long run’s matrix: every row arrives (a first screen with the page, the rest in slices) and is reachable', async ({
    page,
  }, testInfo) => {
    // More cases than the first screen of rows the server renders (features/qa-suites/row-slices.ts).
    const longCaseIds = Array.from({ length: 70 }, (_, index) => `long-${index}`);
    await emulatorCall('DELETE', '/_emulator/variation');
    const suite = await qaApi<{ id: string }>(qaKey, 'POST', '/v1/qa/suites', {
      definition: {
        name: `Long matrix ${Date.now().toString(36)}`,
        targets: [{ model: 'gpt-test' }],
        cases: longCaseIds.map((id) => ({
          id,
          prompt: `Triage this ticket: ${id}`,
          schema: ticketSchema,
          assertions: [{ kind: 'one-of', pointer: '/priority', values: ['low', 'high'] }],
        })),
      },
    });
    const run = await qaApi<{ id: string }>(qaKey, 'POST', `/v1/qa/suites/${suite.id}/runs`, {});
    await signInAsQa(page, qaKey);
    await page.goto(consoleUrl(`/suites/runs/${run.id}`));
    await expectRunFinished(page, longCaseIds.length);
    const matrix = page.getByRole('table', { name: /Results: a row per case/ });
    await expect(matrix).toHaveAttribute('aria-busy', 'false');
    await expect(matrix.getByRole('link', { name: 'passed', exact: true })).toHaveCount(longCaseIds.length);

    // Read again once finished: the first rows come with the page, the others follow in slices.
    await page.reload();
    await expect(matrix).toHaveAttribute('aria-busy', 'false');
    await expect(matrix.getByRole('row')).toHaveCount(1 + longCaseIds.length);
    await expect(matrix.getByRole('rowheader')).toHaveText(longCaseIds);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'long-matrix');
    const last = longCaseIds.at(-1) ?? '';
    await matrix.getByRole('link', { name: last, exact: true }).click();
    await expect(page.getByRole('region', { name: `Case ${last} across targets` })).toBeVisible();
  });

  test('imports a file as the next version of a suite, and a form made from an older version is refused', async ({
    page,
  }, testInfo) => {
    const name = `Imported into ${Date.now().toString(36)}`;
    const suite = await qaApi<{ id: string }>(qaKey, 'POST', '/v1/qa/suites', {
      definition: {
        name,
        targets: [{ model: 'gpt-test' }],
        cases: [{ id: 'first', prompt: 'Triage this ticket: first', schema: ticketSchema }],
      },
    });
    const nextVersion = {
      name,
      targets: [{ model: 'gpt-test' }, { model: 'claude-test' }],
      cases: [
        { id: 'first', prompt: 'Triage this ticket: first', schema: ticketSchema },
        { id: 'second', prompt: 'Triage this ticket: second', schema: ticketSchema },
      ],
    };
    await signInAsQa(page, qaKey);
    await page.goto(consoleUrl(`/suites/${suite.id}`));
    await page.getByText('Or import a file as v2').click();
    const form = page.getByRole('form', { name: 'Import a file as the next version' });
    await form.getByLabel('Format').selectOption('json');
    await form.getByLabel('Or paste the file’s text').fill(JSON.stringify(nextVersion));
    await form.getByLabel('Note for this version').fill('two targets, two cases');
    await form.getByRole('button', { name: 'Import as v2' }).click();
    await expect(form.getByRole('status')).toContainText(`Imported ${name} v2`);
    await expect(form.getByRole('status')).toContainText('Everything in the file was carried over');
    // The page moved on to v2 under the form: its versions, its run button, the next import.
    await expect(page.getByRole('list', { name: 'Versions, newest first' })).toContainText(
      'two targets, two cases',
    );
    await expect(page.getByRole('button', { name: 'Run (4 cells)' })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Import as v3' })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'import-into');

    // Someone else saves v3 meanwhile: this form, made from v2, is refused and says why.
    await qaApi(qaKey, 'PUT', `/v1/qa/suites/${suite.id}`, { definition: nextVersion, baseVersion: 2 });
    await form.getByRole('button', { name: 'Import as v3' }).click();
    await expect(form.getByRole('alert')).toContainText('Not imported:');
    await expect(form.getByRole('alert')).toContainText('the suite is at version 3, not 2');
  });

  test('pages a suite’s runs back to the oldest and compares the latest run with it', async ({
    page,
  }, testInfo) => {
    await emulatorCall('DELETE', '/_emulator/variation');
    const suite = await qaApi<{ id: string }>(qaKey, 'POST', '/v1/qa/suites', {
      definition: {
        name: `Many runs ${Date.now().toString(36)}`,
        targets: [{ model: 'gpt-test' }],
        cases: [{ id: 'only', prompt: 'Triage this ticket: only', schema: ticketSchema }],
      },
    });
    // One more run than the suite page shows at once (SUITE_RUNS_SIZE).
    const runIds: string[] = [];
    for (let index = 0; index < 21; index++)
      runIds.push((await qaApi<{ id: string }>(qaKey, 'POST', `/v1/qa/suites/${suite.id}/runs`, {})).id);
    const [oldest, latest] = [runIds[0] ?? '', runIds.at(-1) ?? ''];
    await expect
      .poll(async () => (await qaApi<{ status: string }>(qaKey, 'GET', `/v1/qa/runs/${latest}`)).status, {
        timeout: 60_000,
      })
      .toBe('completed');

    await signInAsQa(page, qaKey);
    await page.goto(consoleUrl(`/suites/${suite.id}`));
    const runs = page.getByRole('table', { name: 'Runs of the suite, newest first' });
    await expect(runs.getByRole('row')).toHaveCount(1 + 20);
    await expect(runs.getByRole('row').nth(1)).toContainText('Latest');
    await page
      .getByRole('navigation', { name: 'Pages of runs' })
      .getByRole('link', { name: 'Older runs' })
      .click();
    await expect(runs.getByRole('row')).toHaveCount(1 + 1);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'older-runs');

    await runs.getByRole('link', { name: 'Latest run vs this' }).click();
    await expect(page).toHaveURL(new RegExp(`/suites/runs/${latest}\\?against=${oldest}$`));
    await expect(page.getByRole('combobox', { name: 'Compare with' })).toHaveValue(oldest);
    await expect(page.getByRole('region', { name: 'Compare with an earlier run' })).toContainText(
      '0 regressions',
    );
  });

  test('runs the suite from the CLI as CI would: exit codes, the summary, the JUnit report, the run in the console', async ({
    page,
  }, testInfo) => {
    // The suite now has the lab case too: four cases on two targets.
    const cases = [...caseIds, 'lab-ticket-triage'];
    const run = (...options: string[]) => runSuiteCli(['run', suiteName, ...options], qaKey);

    // A healthy baseline, which also holds a floor of 100 %.
    await emulatorCall('DELETE', '/_emulator/variation');
    const baseline = await run('--min-pass-rate', '1');
    expect(baseline.exitCode, baseline.stderr).toBe(0);
    expect(baseline.stdout).toMatch(/^all targets\s+8\/8\s+100\.0%/m);

    // gpt-test gets worse: against the latest run, every one of its cases is a regression.
    await makeGptTestWorse();
    const junitPath = testInfo.outputPath('suite-regression.junit.xml');
    const regressed = await run('--against', 'latest', '--junit', junitPath);
    expect(regressed.exitCode, regressed.stderr).toBe(1);
    const regressedRunId = startedRunId(regressed);
    expect(regressed.stdout).toMatch(/^gpt-test\s+0\/4\s+0\.0%/m);
    expect(regressed.stdout).toMatch(/^claude-test\s+4\/4\s+100\.0%/m);
    expect(regressed.stdout).toContain(
      `Compared with run ${startedRunId(baseline)}: ${cases.length} regression(s), 0 fix(es)`,
    );
    for (const caseId of cases)
      expect(regressed.stdout).toContain(`  ${caseId} on gpt-test: passed → failed`);

    // Still worse, no comparison: the floor alone fails the command.
    const underFloor = await run('--min-pass-rate', '1');
    expect(underFloor.exitCode, underFloor.stderr).toBe(1);
    expect(underFloor.stdout).toContain('Pass rate 50.0% is below the floor of 100.0%.');

    // gpt-test recovers: against the latest (failing) run, its cases are fixes and nothing regressed.
    await emulatorCall('DELETE', '/_emulator/variation');
    const fixed = await run('--against', 'latest');
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain(
      `Compared with run ${startedRunId(underFloor)}: 0 regression(s), ${cases.length} fix(es)`,
    );
    const fixedRunId = startedRunId(fixed);

    // The QA key with its secret mistyped: no verdict, and a message that says why.
    const wrongKey = `${qaKey.slice(0, -4)}${qaKey.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const refused = await runSuiteCli(['run', suiteName], wrongKey);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('suite: GET /v1/qa/suites answered 401: A valid API key is required');

    // The JUnit report, read by a real XML parser: a testsuite per target, a testcase per case,
    // and each failure carries the failed assertions' messages as the API reports them.
    await signInAsQa(page, qaKey);
    const report = await parseJUnitInBrowser(page, await readFile(junitPath, 'utf8'));
    expect(report.parserError).toBeNull();
    expect(report.root).toBe('testsuites');
    expect(report.suites.map((suite) => [suite.name, suite.tests, suite.failures])).toEqual([
      [`${suiteName} — gpt-test`, String(cases.length), String(cases.length)],
      [`${suiteName} — claude-test`, String(cases.length), '0'],
    ]);
    for (const [targetIndex, suite] of report.suites.entries()) {
      expect(suite.cases.map((testCase) => testCase.name)).toEqual(cases);
      for (const testCase of suite.cases) {
        if (targetIndex === 1) {
          expect(testCase.failure).toBeNull();
          continue;
        }
        const messages = await failedAssertionMessages(qaKey, regressedRunId, testCase.name ?? '', 0);
        expect(messages).toContainEqual(expect.stringMatching(/^valid against the schema: \S/));
        for (const message of messages) expect(testCase.failure?.text).toContain(message);
      }
    }

    // The CLI's runs are the suite's runs: newest first on the suite page, and they open.
    await page.goto(suiteUrl);
    const runs = page.getByRole('table', { name: 'Runs of the suite, newest first' });
    const runLink = { name: /^v2 · / };
    await expect(runs.getByRole('row').nth(1).getByRole('link', runLink)).toHaveAttribute(
      'href',
      `/suites/runs/${fixedRunId}`,
    );
    const regressedRow = runs
      .getByRole('row')
      .filter({ has: page.locator(`a[href="/suites/runs/${regressedRunId}"]`) });
    await expect(regressedRow).toContainText('completed');
    await expect(regressedRow).toContainText(`${cases.length} / ${cases.length} / 0 / 8 of 8`);
    await expect(regressedRow).toContainText('Robin QA');
    await regressedRow.getByRole('link', runLink).click();
    await expect(page).toHaveURL(new RegExp(`/suites/runs/${regressedRunId}$`));
    await expect(page.getByRole('heading', { level: 1, name: `Run of ${suiteName} v2` })).toBeVisible();
    const matrix = page.getByRole('table', { name: /Results: a row per case/ });
    await expect(matrix.getByRole('link', { name: /^failed/ })).toHaveCount(cases.length);
    await expectAccessible(page);
  });
});
