import { expect, test } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

async function callApi<T>(key: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${process.env.E2E_API_URL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

test.describe('the sessions list filtered by portal and model', () => {
  test('an admin filters by portal and by model, and the filters stay in the URL', async ({
    page,
  }, testInfo) => {
    const data = seeded();
    // A portal's end user with a session on a model no other seeded session uses.
    const portalKey = await callApi<{ key: string }>(data.adminKey, '/v1/admin/api-keys', {
      role: 'portal',
      label: 'Filters portal',
      portalId: 'e2e-filters-portal',
      trustClientUserId: true,
    });
    const portalSessionLabel = 'Portal user asks about filters';
    await callApi(
      portalKey.key,
      '/v1/sessions',
      { label: portalSessionLabel, model: 'e2e-filter-model' },
      { 'x-end-user-id': 'filters-end-user' },
    );

    await signIn(page, data.adminKey);
    await page.getByLabel('Portal id').fill('e2e-filters-portal');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]portal=e2e-filters-portal/);
    await expect(page.getByRole('link', { name: portalSessionLabel })).toBeVisible();
    await expect(page.getByRole('link', { name: data.toolSessionLabel })).toHaveCount(0);

    await page.goto(consoleUrl('/sessions?model=gpt-test'));
    await expect(page.getByLabel('Model')).toHaveValue('gpt-test');
    await expect(page.getByRole('link', { name: data.toolSessionLabel })).toBeVisible();
    await expect(page.getByRole('link', { name: portalSessionLabel })).toHaveCount(0);

    // Both together, and kept through a reload.
    await page.getByLabel('Model').fill('e2e-filter-model');
    await page.getByLabel('Portal id').fill('e2e-filters-portal');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]model=e2e-filter-model/);
    await page.reload();
    await expect(page.getByLabel('Portal id')).toHaveValue('e2e-filters-portal');
    await expect(page.getByLabel('Model')).toHaveValue('e2e-filter-model');
    await expect(page.getByRole('link', { name: portalSessionLabel })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sessions-filtered-by-portal-and-model');

    // Exact match: a prefix of the model finds nothing.
    await page.goto(consoleUrl('/sessions?portal=e2e-filters-portal&model=e2e-filter'));
    await expect(page.getByText('No session matches these filters.')).toBeVisible();
  });
});
