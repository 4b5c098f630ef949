import { expect, test, type Page } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

/*
 * A QA engineer's day with suites, on the real stack (API on SQLite, the provider emulator): write
 * a suite, import a promptfoo file, run the suite and watch it fill in, open the matrix and a cell,
 * make one model worse through the emulator's variation control, run again and find the regression.
 */

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

test.describe.serial('a QA engineer with suites', () => {
  test.setTimeout(120_000);
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
    await emulatorCall('PUT', '/_emulator/variation', {
      seed: 'console-e2e',
      rates: { 'gpt-test': 1 },
      kinds: ['invalid-enum', 'missing-required', 'wrong-type'],
    });
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
});
