import { expect, test } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

test.describe('console sign-ins end when they end', () => {
  test('a cookie copied before sign-out opens neither /sessions nor /keys after it', async ({ browser }) => {
    const admin = await browser.newContext();
    const page = await admin.newPage();
    await signIn(page, seeded().adminKey);
    const copied = await admin.cookies();
    expect(copied.map((cookie) => cookie.name)).toEqual(['agentdesk_console']);

    // Someone takes a copy of the cookie (another browser, another machine): it works while the sign-in lasts.
    const other = await browser.newContext();
    await other.addCookies(copied);
    const replay = await other.newPage();
    await replay.goto(consoleUrl('/sessions'));
    await expect(replay.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to the AgentDesk console' })).toBeVisible();

    // The copy still holds the sealed cookie, but its session is over on the API.
    for (const path of ['/sessions', '/keys']) {
      await replay.goto(consoleUrl(path));
      await expect(replay, path).toHaveURL(/\/sign-in/);
      await expect(replay.getByRole('heading', { name: 'Sign in to the AgentDesk console' })).toBeVisible();
      await expect(replay.getByText('Your sign-in ended')).toBeVisible();
    }
    await admin.close();
    await other.close();
  });

  test('an admin sees who is signed in and signs a viewer out everywhere', async ({ browser }, testInfo) => {
    const viewerContext = await browser.newContext();
    const viewer = await viewerContext.newPage();
    await signIn(viewer, seeded().viewerKey);
    // The viewer's role may not see sign-ins: the page says so rather than listing them.
    await expect(viewer.getByRole('link', { name: 'Sign-ins' })).toHaveCount(0);

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signIn(admin, seeded().adminKey);
    await admin.getByRole('link', { name: 'Sign-ins' }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Console sign-ins' })).toBeVisible();
    const viewerRow = admin.getByRole('row').filter({ hasText: 'Quinn QA' }).first();
    await expect(viewerRow).toContainText('API key');
    await expect(viewerRow).toContainText('open');
    await expectAccessible(admin);
    await keepScreenshot(admin, testInfo, 'console-sign-ins');

    // The name links to the person's page; "only theirs" filters this list to them.
    await viewerRow.getByRole('link', { name: 'only theirs' }).click();
    await expect(admin).toHaveURL(/[?&]user=/);
    await admin.getByRole('button', { name: 'Sign this person out everywhere' }).click();
    await expect(admin.getByRole('status')).toContainText('Signed the person out everywhere');
    await expect(admin.getByText('No sign-in here.')).toBeVisible();

    await viewer.goto(consoleUrl('/sessions'));
    await expect(viewer).toHaveURL(/\/sign-in/);
    // The admin's own sign-in is untouched.
    await admin.goto(consoleUrl('/sessions'));
    await expect(admin.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
    await viewerContext.close();
    await adminContext.close();
  });
});
