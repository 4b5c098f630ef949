import { expect, test } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

test.describe('usage', () => {
  test('an admin reads tokens per day by model, then switches the grouping to user', async ({
    page,
  }, testInfo) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.getByRole('link', { name: 'Usage' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();

    // The seeded turns were answered by gpt-test today: a bar, a legend entry and table rows.
    const chart = page.getByRole('img', { name: /Tokens per day by model/ });
    await expect(chart).toBeVisible();
    expect(await chart.locator('rect').count()).toBeGreaterThan(0);
    await expect(page.getByRole('list', { name: 'Legend' })).toContainText('gpt-test');
    const table = page.getByRole('table', { name: 'Tokens per UTC day and model' });
    await expect(table.getByRole('row').filter({ hasText: 'gpt-test' }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Totals' })).toContainText('model calls');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'usage-by-model');

    await page.getByRole('navigation', { name: 'Group by' }).getByRole('link', { name: 'User' }).click();
    await expect(page).toHaveURL(/groupBy=user/);
    await expect(page.getByRole('img', { name: /Tokens per day by user/ })).toBeVisible();
    const byUser = page.getByRole('table', { name: 'Tokens per UTC day and user' });
    await expect(byUser.getByRole('columnheader', { name: 'User' })).toBeVisible();
    expect(await byUser.locator('tbody tr').count()).toBeGreaterThan(0);
    // Users are named (Alice ran the seeded turns), not shown by id.
    await expect(page.getByRole('list', { name: 'Legend' })).toContainText('Alice');
    await expect(byUser.getByRole('row').filter({ hasText: 'Alice' }).first()).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'usage-by-user');
  });

  test('a range with no usage says so, and an unreadable date is named, not guessed', async ({
    page,
  }, testInfo) => {
    await signIn(page, seeded().adminKey);
    await page.goto(consoleUrl('/usage?groupBy=provider&from=2001-01-01&to=2001-01-31'));
    await expect(page.getByText('No model call reported usage from 2001-01-01 to 2001-01-31.')).toBeVisible();
    await page.goto(consoleUrl('/usage?groupBy=model&from=2026-02-30'));
    await expect(
      page.getByRole('alert').filter({ hasText: 'From must be a date like 2026-01-31.' }),
    ).toBeVisible();
    // A range the API refuses shows the API's message naming the field.
    await page.goto(consoleUrl('/usage?groupBy=model&from=2020-01-01&to=2026-01-01'));
    await expect(page.getByText(/at most 366/)).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'usage-refused-range');
  });

  test('a viewer may read usage too', async ({ page }) => {
    await signIn(page, seeded().viewerKey);
    await page.getByRole('link', { name: 'Usage' }).click();
    await expect(page.getByRole('img', { name: /Tokens per day by model/ })).toBeVisible();
  });
});
