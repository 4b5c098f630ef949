import { expect, test } from '@playwright/test';
import { startAlternateStack, type AlternateStack } from './support/alternate-stack';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

test.describe('pages answer the true HTTP status, in the console’s layout', () => {
  test('an unknown session answers 404 with the navigation to go on from', async ({ page }, testInfo) => {
    await signIn(page, seeded().adminKey);
    // An id of the API's layout (UUIDv7) that names no session.
    const response = await page.goto(consoleUrl('/sessions/01900000-0000-7000-8000-000000000000'));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sessions' }),
    ).toBeVisible();
    await expect(page.getByText('The API refused')).toHaveCount(0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'unknown-session-404');
  });

  test('an unknown lab run answers 404 too, and so does an address whose id cannot name anything', async ({
    page,
  }) => {
    await signIn(page, seeded().adminKey);
    for (const path of [
      '/lab/runs/01900000-0000-7000-8000-000000000000',
      '/lab/runs/00000000-0000-4000-8000-000000000000',
      '/sessions/not-an-id',
    ]) {
      const response = await page.goto(consoleUrl(path));
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' }), path).toBeVisible();
    }
  });

  test('an unknown address answers 404 inside the console layout', async ({ page }) => {
    await signIn(page, seeded().adminKey);
    const response = await page.goto(consoleUrl('/no-such-page/at-all'));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    const navigation = page.getByRole('navigation', { name: 'Console' });
    await expect(navigation.getByRole('link', { name: 'Audit' })).toBeVisible();
    await navigation.getByRole('link', { name: 'Sessions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  });

  test('the page the proxy shows while the API is down is no page of its own when the API is up', async ({
    page,
  }) => {
    await signIn(page, seeded().adminKey);
    const response = await page.goto(consoleUrl('/api-unavailable'));
    expect(response?.status()).toBe(404);
    // A client cannot make it say the API is down: only the console's own request is believed.
    const spoofed = await page.request.get(consoleUrl('/api-unavailable'), {
      headers: { 'x-agentdesk-api-problem': 'unreachable', 'x-agentdesk-internal-page': 'guess' },
    });
    expect(spoofed.status()).toBe(404);
  });

  test('the console has an icon, and /favicon.ico is not a 404', async ({ page }) => {
    const icon = await page.request.get(consoleUrl('/icon.svg'));
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    const favicon = await page.request.get(consoleUrl('/favicon.ico'));
    expect(favicon.status()).toBe(200);
    await page.goto(consoleUrl('/sign-in'));
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /icon/);
  });
});

test.describe('pages while the API is down', () => {
  let stack: AlternateStack | undefined;
  test.beforeAll(async () => {
    stack = await startAlternateStack({});
  });
  test.afterAll(async () => {
    await stack?.stop();
  });

  test('an admin signed in before the API stopped gets 503 and is told what happened and what to do', async ({
    page,
  }, testInfo) => {
    if (stack === undefined) throw new Error('the stack did not start');
    await signIn(page, stack.adminKey, stack.consoleUrl);
    await stack.stopApi();
    const response = await page.goto(`${stack.consoleUrl}/sessions?status=open`);
    expect(response?.status(), `the console said: ${stack.consoleOutput().slice(-3_000)}`).toBe(503);
    // The address stays the one asked for, so "try again" reloads it.
    expect(page.url()).toBe(`${stack.consoleUrl}/sessions?status=open`);
    await expect(page.getByRole('heading', { level: 1, name: 'The API cannot be reached' })).toBeVisible();
    // Next's route announcer is an alert too (empty): the page's own says what happened.
    await expect(page.getByRole('alert').filter({ hasText: 'got no answer' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try this page again' })).toHaveAttribute(
      'href',
      '/sessions?status=open',
    );
    await expect(
      page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Usage' }),
    ).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'api-down-503');
  });
});
