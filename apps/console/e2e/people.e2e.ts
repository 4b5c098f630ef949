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

test.describe('people', () => {
  test('an admin finds alice by typing "ali", opens her page and sees her sessions', async ({
    page,
  }, testInfo) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.goto(consoleUrl('/users'));
    await page.getByLabel('Name, email or external id starts with').fill('ali');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/[?&]q=ali/);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'users-search-ali');
    await page
      .getByRole('link', { name: /^Alice/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/users\/[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { level: 1, name: 'Alice' })).toBeVisible();
    await expect(page.getByRole('link', { name: data.toolSessionLabel })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'user-page-alice');
  });

  test('the audit log names alice, linking to her page, where her id was', async ({ page }) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    // Reading alice's page is audited with her as the target user.
    await page.goto(consoleUrl('/users?q=alice'));
    await page
      .getByRole('link', { name: /^Alice/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/users\/[0-9a-f-]{36}/);
    const aliceId = new URL(page.url()).pathname.split('/').at(-1)!;

    await page.goto(consoleUrl(`/audit?action=admin.user.read&target=${aliceId}`));
    const alice = page.getByRole('link', { name: /^Alice \(user id/ }).first();
    await expect(alice).toBeVisible();
    await expect(alice).toHaveAttribute('href', `/users/${aliceId}`);
    await expect(alice).toHaveAttribute('title', `User id ${aliceId}`);
    await expectAccessible(page);
  });

  test('the sessions list names each owner with a link, and ?user=alice finds alice', async ({ page }) => {
    const data = seeded();
    const portalKey = await callApi<{ key: string }>(data.adminKey, '/v1/admin/api-keys', {
      role: 'portal',
      label: 'People portal',
      portalId: 'e2e-people-portal',
      trustClientUserId: true,
    });
    for (const [id, name] of [
      ['bob-e2e', 'Bob Stone'],
      ['carol-e2e', 'Carol Jones'],
    ] as const)
      await callApi(
        portalKey.key,
        '/v1/sessions',
        { label: `${name} needs help` },
        {
          'x-end-user-id': id,
          'x-end-user-name': encodeURIComponent(name),
        },
      );

    await signIn(page, data.adminKey);
    await page.goto(consoleUrl('/sessions'));
    // The owner's link (not the session's label "Bob Stone needs help").
    const bob = page.getByRole('link', { name: /^Bob Stone \(user id/ });
    await expect(bob).toBeVisible();
    await expect(page.getByRole('link', { name: /^Carol Jones \(user id/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Alice \(user id/ }).first()).toBeVisible();
    await expect(bob).toHaveAttribute('href', /^\/users\/[0-9a-f-]{36}$/);

    await page.goto(consoleUrl('/sessions?user=alice'));
    await expect(page.getByRole('link', { name: data.toolSessionLabel })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Bob Stone needs help' })).toHaveCount(0);
  });
});
