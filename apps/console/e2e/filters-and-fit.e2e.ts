import { expect, test, type Page } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

const utcToday = () => new Date().toISOString().slice(0, 10);
const utcDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Pages with a list table, each read at the desktop width and on a phone. */
const listPages = [
  '/sessions',
  '/keys',
  '/audit',
  '/usage?groupBy=user',
  '/lab',
  '/console-sessions',
  '/sandbox',
  '/users',
];

/** A value as long as the API takes, with no space to break at: the worst case for a column. */
const unbroken = (prefix: string, length: number) => `${prefix}-${'x'.repeat(length - prefix.length - 1)}`;
const longText = {
  keyLabel: unbroken('Quarterly-reconciliation-key', 200),
  portalId: unbroken('north-region-customer-portal', 200),
  externalId: unbroken('someone.with.a.long.address@example.org', 256),
  displayName: 'Maximiliana Theodora Wilhelmina von Hohenzollern-Sigmaringen '.repeat(3).trim(),
  sessionLabel: unbroken('Reconcile-the-invoices-of-every-subsidiary', 200),
  runName: unbroken('Invoice-extraction-against-every-provider', 200),
};

async function callApi(key: string, method: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${process.env.E2E_API_URL ?? ''}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

async function scriptEmulator(replies: unknown[]): Promise<void> {
  const response = await fetch(`${process.env.E2E_EMULATOR_URL ?? ''}/_emulator/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replies),
  });
  if (!response.ok) throw new Error(`scripting the emulator failed: ${await response.text()}`);
}

/** Rows with the longest values each list shows: a portal key, a person, their session, usage, a lab run. */
async function seedLongValues(adminKey: string): Promise<void> {
  await callApi(adminKey, 'POST', '/v1/admin/api-keys', {
    role: 'portal',
    label: longText.keyLabel,
    portalId: longText.portalId,
  });
  const person = (await callApi(adminKey, 'POST', '/v1/admin/api-keys', {
    role: 'user',
    label: longText.keyLabel,
    externalId: longText.externalId,
    displayName: longText.displayName,
  })) as { key: string };
  const session = (await callApi(person.key, 'POST', '/v1/sessions', {
    label: longText.sessionLabel,
    model: 'gpt-test',
  })) as { id: string };
  await scriptEmulator([
    { kind: 'text', text: 'Done.', usage: { inputTokens: 1_234_567, outputTokens: 89_012 } },
  ]);
  await callApi(person.key, 'POST', `/v1/sessions/${session.id}/messages`, { content: 'Reconcile them.' });
  await scriptEmulator([{ kind: 'text', text: '{"total":1}' }]);
  await callApi(adminKey, 'POST', '/v1/admin/structured-output/runs', {
    name: longText.runName,
    schema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
    prompt: 'Total of the invoices?',
    targets: [{ model: 'gpt-test' }],
  });
}

async function expectNoHorizontalPageScroll(page: Page, path: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

test.describe('date ranges and filter URLs', () => {
  test('a filter form’s URL carries only the filters set', async ({ page }) => {
    await signIn(page, seeded().adminKey);
    await page.goto(consoleUrl('/sessions'));
    await page.getByLabel('Status').selectOption('open');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(consoleUrl('/sessions?status=open'));
  });

  test('a range the wrong way round is refused inline, and in the URL too', async ({ page }) => {
    await signIn(page, seeded().adminKey);
    await page.goto(consoleUrl('/sessions'));
    await page.getByLabel('Created from').fill('2026-03-02');
    await page.getByLabel('Created to').fill('2026-03-01');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const form = page.getByRole('form', { name: 'Filter sessions' });
    await expect(form.getByRole('alert')).toHaveText('Created from must not be after Created to.');
    await expect(page).toHaveURL(consoleUrl('/sessions'));

    for (const path of ['/sessions', '/audit', '/usage']) {
      await page.goto(consoleUrl(`${path}?from=2026-03-02&to=2026-03-01`));
      await expect(page.getByRole('alert').first(), path).toContainText('must not be after');
    }
    await expectAccessible(page);
  });

  test('presets set today, the last 7 and the last 30 UTC days', async ({ page }) => {
    await signIn(page, seeded().adminKey);
    for (const path of ['/sessions', '/audit', '/usage']) {
      await page.goto(consoleUrl(path));
      const presets = page.getByRole('navigation', { name: 'Date range presets' });
      await expect(presets).toContainText('UTC');
      await presets.getByRole('link', { name: 'Last 7 days' }).click();
      await expect(page, path).toHaveURL(new RegExp(`from=${utcDaysAgo(6)}&to=${utcToday()}`));
      await page
        .getByRole('navigation', { name: 'Date range presets' })
        .getByRole('link', { name: 'Today' })
        .click();
      await expect(page, path).toHaveURL(new RegExp(`from=${utcToday()}&to=${utcToday()}`));
    }
  });
});

test.describe('tables that fit', () => {
  test.beforeAll(async () => {
    await seedLongValues(seeded().adminKey);
  });

  test('at 1280 px every table shows its last column without cutting, long values included', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, seeded().adminKey);
    for (const path of listPages) {
      await page.goto(consoleUrl(path));
      await expectNoHorizontalPageScroll(page, path);
      const containers = page.locator('.table-scroll');
      await expect(containers.first(), `${path} shows a table`).toBeVisible();
      for (let index = 0; index < (await containers.count()); index += 1) {
        const container = containers.nth(index);
        const widths = await container.evaluate((element) => ({
          scroll: element.scrollWidth,
          client: element.clientWidth,
          right: element.getBoundingClientRect().right,
        }));
        expect(
          widths.scroll,
          `${path}: table ${index + 1} is ${widths.scroll - widths.client}px wider than its container`,
        ).toBeLessThanOrEqual(widths.client);
        const lastHeader = container.locator('thead th').last();
        const box = await lastHeader.boundingBox();
        expect(box, `${path}: table ${index + 1} has a last column`).not.toBeNull();
        const right = (box?.x ?? 0) + (box?.width ?? 0);
        expect(right, `${path}: table ${index + 1}'s last column ends outside`).toBeLessThanOrEqual(
          Math.min(1280, widths.right),
        );
      }
      await expectAccessible(page);
    }
    // The long values are really there, so the widths above were measured with them.
    await page.goto(consoleUrl('/keys'));
    await expect(page.getByText(longText.keyLabel).first()).toBeVisible();
    await page.goto(consoleUrl('/users'));
    await expect(page.getByText(longText.displayName).first()).toBeVisible();
    await page.goto(consoleUrl('/lab'));
    await expect(page.getByRole('link', { name: longText.runName })).toBeVisible();
  });

  test('on a phone no page scrolls sideways and every row reads as a card of labelled fields', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, seeded().adminKey);
    for (const path of listPages) {
      await page.goto(consoleUrl(path));
      await expectNoHorizontalPageScroll(page, path);
      const tables = page.locator('.table-scroll table');
      await expect(tables.first(), `${path} shows a table`).toBeVisible();
      for (let index = 0; index < (await tables.count()); index += 1) {
        const table = tables.nth(index);
        const headers = (await table.locator('thead th').allTextContents()).map((text) =>
          text.replace(/[▲▼]/g, '').trim(),
        );
        const cells = table.locator('tbody tr').first().locator('td');
        expect(await cells.count(), `${path}: table ${index + 1} has a row`).toBe(headers.length);
        for (let column = 0; column < headers.length; column += 1) {
          const cell = cells.nth(column);
          await expect(cell, `${path}: ${headers[column]}`).toBeVisible();
          // Each field names its column, as the (visually hidden) header does.
          await expect(cell, `${path}: the ${headers[column]} field`).toHaveAttribute(
            'data-label',
            headers[column] ?? '',
          );
          const box = await cell.boundingBox();
          expect((box?.x ?? 0) + (box?.width ?? 0), `${path}: ${headers[column]}`).toBeLessThanOrEqual(390);
        }
      }
      await expectAccessible(page);
    }
    await page.goto(consoleUrl('/sessions'));
    await expect(
      page.locator('.table-scroll tbody tr').first().locator('td[data-label="Created"]'),
    ).toBeVisible();
    await keepScreenshot(page, testInfo, 'sessions-phone');
  });

  test('on a phone the usage chart keeps its labels readable and fits the screen', async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, seeded().adminKey);
    await page.goto(consoleUrl(`/usage?groupBy=user&from=${utcDaysAgo(29)}&to=${utcToday()}`));
    const chart = page.getByRole('img', { name: /Tokens per day by user/ });
    await expect(chart).toBeVisible();
    await expectNoHorizontalPageScroll(page, '/usage');
    const chartBox = await chart.boundingBox();
    expect((chartBox?.x ?? 0) + (chartBox?.width ?? 0)).toBeLessThanOrEqual(390);
    // The size each label is drawn at on the screen: its font size times the SVG's scale.
    const labels = await chart.locator('text').evaluateAll((elements) =>
      elements.map((element) => ({
        text: element.textContent ?? '',
        pixels:
          Number.parseFloat(getComputedStyle(element).fontSize) *
          ((element as SVGTextElement).getScreenCTM()?.a ?? 0),
        right: element.getBoundingClientRect().right,
        left: element.getBoundingClientRect().left,
      })),
    );
    expect(labels.length, 'the axis and some days are labelled').toBeGreaterThanOrEqual(3);
    for (const label of labels) {
      expect(label.pixels, `“${label.text}” is drawn at ${label.pixels.toFixed(1)}px`).toBeGreaterThanOrEqual(
        11,
      );
      expect(label.left, `“${label.text}” starts inside the chart`).toBeGreaterThanOrEqual(chartBox?.x ?? 0);
      expect(label.right, `“${label.text}” ends inside the screen`).toBeLessThanOrEqual(390);
    }
    // Day labels do not run into each other.
    const dayLabels = labels.filter((label) => /^\d{2}-\d{2}$/.test(label.text));
    expect(dayLabels.length).toBeGreaterThanOrEqual(2);
    for (let index = 1; index < dayLabels.length; index += 1)
      expect(dayLabels[index]?.left ?? 0).toBeGreaterThan(dayLabels[index - 1]?.right ?? 0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'usage-phone');
  });
});
