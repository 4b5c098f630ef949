import { expect, test } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

test.describe('an admin', () => {
  test('signs in with a key and sees every user’s sessions, newest first', async ({ page }, testInfo) => {
    const data = seeded();
    await page.goto(consoleUrl('/sign-in'));
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sign-in');
    await signIn(page, data.adminKey);

    const rows = page.getByRole('table').getByRole('row');
    await expect(rows.nth(1)).toContainText(data.failedSessionLabel);
    await expect(rows.nth(2)).toContainText(data.toolSessionLabel);
    await expect(page.getByRole('link', { name: 'Sessions' })).toHaveAttribute('aria-current', 'page');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sessions');
  });

  test('opens another user’s session and sees its tool call with arguments and result', async ({
    page,
  }, testInfo) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.getByRole('link', { name: data.toolSessionLabel }).click();

    await expect(page.getByRole('heading', { level: 1, name: data.toolSessionLabel })).toBeVisible();
    await expect(page.getByRole('note').filter({ hasText: 'recorded in the audit log' })).toBeVisible();
    await expect(page.getByText('Show me the January report you stored.', { exact: true })).toBeVisible();
    const toolCard = page.getByRole('article', { name: 'Tool call read_tool_result' });
    await expect(toolCard).toBeVisible();
    await expect(toolCard).toContainText('"id": "report-2026-01"');
    await expect(toolCard.getByText('Result', { exact: true })).toBeVisible();
    await expect(
      page.getByText('That stored result does not exist any more.', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'Session totals' })).toContainText('Tool calls1');

    const rawToggle = toolCard.getByText('Raw JSON of the call and its result');
    await rawToggle.click();
    await expect(toolCard.locator('details[open] pre')).toContainText('"toolCallId"');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'session-with-tool-call');
  });

  test('sees a failed turn with the provider’s error', async ({ page }, testInfo) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.getByRole('link', { name: data.failedSessionLabel }).click();
    await expect(page.getByRole('region', { name: 'Turn 1' })).toContainText('failed');
    await expect(page.getByRole('note', { name: 'Error' })).toContainText('Failed:');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'session-failed-turn');
  });

  test('filters the sessions by label text, kept in the URL', async ({ page }) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.getByLabel('Label contains').fill('outage');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]label=outage/);
    await expect(page.getByRole('link', { name: data.failedSessionLabel })).toBeVisible();
    await expect(page.getByRole('link', { name: data.toolSessionLabel })).toHaveCount(0);

    await page.reload();
    await expect(page.getByLabel('Label contains')).toHaveValue('outage');
    await expect(page.getByRole('link', { name: data.toolSessionLabel })).toHaveCount(0);
  });

  test('signs out, and the console forgets the key', async ({ page, context }) => {
    await signIn(page, seeded().adminKey);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'agentdesk_console', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).toBe('{}');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the AgentDesk console' })).toBeVisible();
    expect(await context.cookies()).toEqual([]);
    await page.goto(consoleUrl('/sessions'));
    await expect(page).toHaveURL(/\/sign-in$/);
  });
});

test.describe('a viewer', () => {
  test('reads sessions and transcripts but sees no mutating control', async ({ page }, testInfo) => {
    const data = seeded();
    await signIn(page, data.viewerKey);
    await expect(page.getByText('viewer', { exact: true })).toBeVisible();
    for (const path of ['/sessions', `/sessions/${data.toolSessionId}`]) {
      await page.goto(consoleUrl(path));
      // Every form that changes something posts; the viewer's only one is signing out.
      const postingForms = page.locator('form[method="post"]');
      await expect(postingForms).toHaveCount(1);
      await expect(postingForms.getByRole('button')).toHaveText('Sign out');
      const buttons = await page.getByRole('button').allTextContents();
      expect(buttons.filter((name) => !['Sign out', 'Apply filters'].includes(name))).toEqual([]);
    }
    await expect(page.getByRole('article', { name: 'Tool call read_tool_result' })).toBeVisible();
    await keepScreenshot(page, testInfo, 'viewer-session');
  });
});

test.describe('signing in', () => {
  test('refuses a user’s key, naming the roles that may sign in', async ({ page }) => {
    await page.goto(consoleUrl('/sign-in'));
    await page.getByLabel('API key').fill(seeded().userKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(
      page.getByText('This key cannot use the console: sign in with an admin or viewer key.'),
    ).toBeVisible();
  });

  test('refuses an unknown key', async ({ page }) => {
    await page.goto(consoleUrl('/sign-in'));
    await page.getByLabel('API key').fill(`adk_${'0'.repeat(32)}_${'A'.repeat(43)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('The API does not accept this key')).toBeVisible();
  });

  test('refuses a sign-in or sign-out posted from another site (CSRF)', async ({ request }) => {
    for (const path of ['/auth/sign-in', '/auth/sign-out']) {
      for (const origin of ['http://evil.example', 'null', undefined]) {
        const response = await request.post(consoleUrl(path), {
          headers: origin === undefined ? {} : { origin },
          form: { apiKey: seeded().adminKey },
          maxRedirects: 0,
        });
        expect(response.status(), `${path} from ${origin}`).toBe(403);
        expect(response.headers()['set-cookie']).toBeUndefined();
      }
    }
  });
});
