import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { consoleUrl, expectAccessible, seeded, signIn } from './support/console-test';

async function callApi<T>(key: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${process.env.E2E_API_URL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** The session labels the table shows, top to bottom. */
function shownLabels(page: Page): Promise<string[]> {
  return page
    .getByRole('cell')
    .getByRole('link', { name: /^Sort case / })
    .allTextContents();
}

test.describe('sorted lists and their exports', () => {
  test('an admin sorts the sessions by label, pages on in that order, and exports exactly that list', async ({
    page,
  }) => {
    const data = seeded();
    const portalKey = await callApi<{ key: string }>(data.adminKey, '/v1/admin/api-keys', {
      role: 'portal',
      label: 'Sort portal',
      portalId: 'e2e-sort-portal',
      trustClientUserId: true,
    });
    // 27 sessions (a page is 25), created in an order that is not the labels' order.
    const labels = Array.from(
      { length: 27 },
      (_, index) => `Sort case ${String((index * 11) % 27).padStart(2, '0')}`,
    );
    for (const label of labels)
      await callApi(portalKey.key, '/v1/sessions', { label }, { 'x-end-user-id': 'sort-end-user' });
    const byLabel = [...labels].sort();

    await signIn(page, data.adminKey);
    await page.goto(consoleUrl('/sessions?portal=e2e-sort-portal'));
    const sessionHeader = page.getByRole('columnheader', { name: 'Session' });
    await expect(page.getByRole('columnheader', { name: 'Created' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await sessionHeader.getByRole('link').click();
    await expect(page).toHaveURL(/[?&]sort=label&dir=asc/);
    await expect(page).toHaveURL(/[?&]portal=e2e-sort-portal/);
    await expect(sessionHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByRole('columnheader', { name: 'Created' })).not.toHaveAttribute('aria-sort');
    expect(await shownLabels(page)).toEqual(byLabel.slice(0, 25));
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Older sessions' }).click();
    await expect(page).toHaveURL(/[?&]sort=label&dir=asc.*[?&]cursor=/);
    expect(await shownLabels(page)).toEqual(byLabel.slice(25));

    // Sorting again by the same column turns the order round and starts at the first page.
    await sessionHeader.getByRole('link').click();
    await expect(page).toHaveURL(/[?&]sort=label&dir=desc/);
    await expect(page).not.toHaveURL(/cursor=/);
    await expect(sessionHeader).toHaveAttribute('aria-sort', 'descending');
    expect(await shownLabels(page)).toEqual([...byLabel].reverse().slice(0, 25));

    // The export holds the whole filtered list (both pages) in the order shown.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^sessions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const [header, ...rows] = csv
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const labelColumn = header!.indexOf('label');
    expect(rows.map((row) => row[labelColumn])).toEqual([...byLabel].reverse());
  });

  test('the audit log and the keys sort by their column headers', async ({ page }) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.goto(consoleUrl('/audit'));
    const action = page.getByRole('columnheader', { name: 'Action' });
    await action.getByRole('link').click();
    await expect(page).toHaveURL(/[?&]sort=action&dir=asc/);
    await expect(action).toHaveAttribute('aria-sort', 'ascending');
    const actions = await page
      .getByRole('cell')
      .getByRole('link', { name: /^[a-z-]+(\.[a-z-]+)+$/ })
      .allTextContents();
    expect(actions.length).toBeGreaterThan(1);
    expect(actions).toEqual([...actions].sort());

    await page.goto(consoleUrl('/keys'));
    const label = page.getByRole('columnheader', { name: 'Label' });
    await label.getByRole('link').click();
    await expect(page).toHaveURL(/[?&]sort=label&dir=asc/);
    await expect(label).toHaveAttribute('aria-sort', 'ascending');
    await expectAccessible(page);
  });
});
