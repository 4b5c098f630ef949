import { expect, test } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

test.describe('keys, audit and search', () => {
  test('an admin creates a viewer key, sees it once, then revokes it', async ({
    page,
    context,
  }, testInfo) => {
    const data = seeded();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleUrl() });
    await signIn(page, data.adminKey);
    await page.getByRole('link', { name: 'Keys' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Keys and users' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'QA viewer', exact: true })).toBeVisible();

    const form = page.getByRole('form', { name: 'Create a key' });
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByLabel('Label').fill('E2E temporary viewer');
    await form.getByLabel('External id (a local user, created if new)').fill('e2e-temporary-viewer');
    await form.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByLabel('New API key');
    await expect(shown).toBeVisible();
    const key = (await shown.textContent()) ?? '';
    expect(key.length).toBeGreaterThan(20);
    await expect(page.getByRole('status')).toContainText('shown this once');
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    // The list refreshed under the form: the new key is there, by label and prefix, never in full.
    const row = page.getByRole('row').filter({ hasText: 'E2E temporary viewer' });
    await expect(row).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'keys-created');

    // Nothing kept it: after a reload the key is gone from the page and from browser storage.
    await page.reload();
    await expect(page.getByLabel('New API key')).toHaveCount(0);
    await expect(page.getByText(key)).toHaveCount(0);
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain(key);
    expect(await page.content()).not.toContain(key);

    await row.getByRole('button', { name: 'Revoke E2E temporary viewer' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    // The page's own words for the code in its URL (a URL cannot name the key: anyone can write one).
    await expect(page.getByRole('status')).toHaveText('The key was revoked: its next request is refused.');
    await expect(page.getByRole('row').filter({ hasText: 'E2E temporary viewer' })).toHaveCount(0);
    // The revoked key no longer signs in.
    const refused = await fetch(`${process.env.E2E_API_URL ?? ''}/v1/me`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(refused.status).toBe(401);
    await page.getByRole('link', { name: 'Show revoked keys too' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'E2E temporary viewer' })).toContainText('revoked');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'keys-revoked');
  });

  test('an admin finds the audit record of reading another user’s session', async ({ page }, testInfo) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.goto(consoleUrl(`/sessions/${data.toolSessionId}`));
    await expect(page.getByRole('heading', { level: 1, name: data.toolSessionLabel })).toBeVisible();

    await page.getByRole('link', { name: 'Audit' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    await page.getByLabel('Action').fill('admin.session.read');
    await page.getByLabel('Session id').fill(data.toolSessionId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/action=admin\.session\.read/);
    await expect(page).toHaveURL(new RegExp(`session=${data.toolSessionId}`));
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows.nth(1)).toContainText('admin.session.read');
    await expect(rows.nth(1).getByRole('link', { name: `…${data.toolSessionId.slice(-8)}` })).toHaveAttribute(
      'href',
      `/sessions/${data.toolSessionId}`,
    );
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'audit');

    await page.goto(consoleUrl('/audit?from=2026-02-30'));
    await expect(page.getByRole('alert').filter({ hasText: 'From must be' })).toContainText(
      'From must be a date like 2026-01-31',
    );
  });

  test('an admin searches for a word and follows the result to its transcript', async ({
    page,
  }, testInfo) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.getByRole('link', { name: 'Search' }).click();
    await expect(page.getByText('Type one or more words')).toBeVisible();
    await page.getByLabel('Words').fill('January report');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/q=January\+report/);
    const results = page.getByRole('list', { name: 'Messages found' });
    const hit = results.getByRole('link', { name: 'Show me the January report you stored.' });
    await expect(hit).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'search');

    await hit.click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${data.toolSessionId}#message-`));
    await expect(page.getByRole('heading', { level: 1, name: data.toolSessionLabel })).toBeVisible();
    const anchor = decodeURIComponent(new URL(page.url()).hash.slice(1));
    await expect(page.locator(`[id="${anchor}"]`)).toContainText('Show me the January report you stored.');

    await page.goto(consoleUrl('/search?q=%22%2A%28'));
    await expect(page.getByRole('alert').filter({ hasText: 'The API refused' })).toContainText('q');
    await page.goto(consoleUrl('/search?q=nosuchwordanywhere'));
    await expect(page.getByText('No message contains these words.')).toBeVisible();
  });

  test('a viewer searches but sees no key or audit page, and forcing a key mutation is refused', async ({
    page,
  }, testInfo) => {
    const data = seeded();
    await signIn(page, data.viewerKey);
    const navigation = page.getByRole('navigation', { name: 'Console' });
    await expect(navigation.getByRole('link', { name: 'Search' })).toBeVisible();
    await expect(navigation.getByRole('link', { name: 'Keys' })).toHaveCount(0);
    await expect(navigation.getByRole('link', { name: 'Audit' })).toHaveCount(0);

    await page.goto(consoleUrl('/keys'));
    await expect(page.getByText('may not see API keys')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'keys-as-viewer');

    const origin = consoleUrl();
    const created = await page.request.post(consoleUrl('/keys/create'), {
      headers: { origin, 'content-type': 'application/json' },
      data: { role: 'admin', label: 'escalation', externalId: 'mallory' },
    });
    expect(created.status()).toBe(403);
    const revoked = await page.request.post(consoleUrl('/keys/revoke'), {
      headers: { origin },
      form: { keyId: '00000000-0000-7000-8000-000000000000' },
      maxRedirects: 0,
    });
    expect(revoked.status()).toBe(403);

    await page.goto(consoleUrl('/audit'));
    await expect(page.getByText('may not read the audit log')).toBeVisible();
  });

  test('a mutation from another site is refused even for an admin', async ({ page }) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    const response = await page.request.post(consoleUrl('/keys/create'), {
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      data: { role: 'admin', label: 'csrf', externalId: 'csrf' },
    });
    expect(response.status()).toBe(403);
    const missingOrigin = await page.request.post(consoleUrl('/keys/revoke'), {
      form: { keyId: '00000000-0000-7000-8000-000000000000' },
      maxRedirects: 0,
    });
    expect(missingOrigin.status()).toBe(403);
  });
});
