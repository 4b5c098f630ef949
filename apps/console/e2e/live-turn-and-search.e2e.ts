import { expect, test } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';
import { scriptEmulator } from './support/seed-transcripts';

const apiUrl = () => process.env.E2E_API_URL ?? '';
const emulatorUrl = () => process.env.E2E_EMULATOR_URL ?? '';

/** A session of the seeded user, made over HTTP as a portal would. */
async function newSession(label: string): Promise<string> {
  const created = await fetch(`${apiUrl()}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seeded().userKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label, model: 'gpt-test' }),
  });
  return ((await created.json()) as { id: string }).id;
}

test.describe('turns as they happen, and search', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, seeded().adminKey);
  });

  test('an admin watching a session sees the streamed answer grow before the turn ends, and the turn end without a reload', async ({
    page,
  }, testInfo) => {
    const sessionId = await newSession('Bob watches a slow stream');
    const answer = 'The route table is rebuilt one careful step at a time, then checked again.';
    // Four characters every 400 ms: about eight seconds of streaming.
    await scriptEmulator(emulatorUrl(), [{ kind: 'text', text: answer, chunkSize: 4, chunkDelayMs: 400 }]);
    let turnEnded = false;
    // A portal's streamed turn (SSE), as the issue found it: the text exists only in the stream until the end.
    const turn = fetch(`${apiUrl()}/v1/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${seeded().userKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ content: 'How is the route table rebuilt?' }),
    })
      .then((response) => response.text())
      .finally(() => {
        turnEnded = true;
      });
    try {
      await expect(async () => {
        await page.goto(consoleUrl(`/sessions/${sessionId}`));
        await expect(page.getByText('A turn is running')).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 10_000 });
      await page.evaluate(() => {
        (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
      });
      const assistant = page.getByRole('article', { name: /^Assistant message/ });
      // Part of the answer is on the page while the turn is still streaming it.
      await expect(assistant).toContainText('The route table');
      expect(turnEnded).toBe(false);
      await expect(assistant).not.toContainText('checked again.');
      await expect(page.getByText('this page shows it as it happens')).toBeVisible();
      await expect(page.getByText('pending', { exact: true })).toBeVisible();
      await keepScreenshot(page, testInfo, 'session-live-stream');

      // The whole answer, stored, and the pending state gone — on the same page, never reloaded.
      await expect(assistant).toContainText(answer, { timeout: 20_000 });
      await expect(page.getByText('A turn is running')).toHaveCount(0, { timeout: 10_000 });
      await expect(page.getByText('pending', { exact: true })).toHaveCount(0);
      expect(turnEnded).toBe(true);
      expect(
        await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage),
      ).toBe(true);
      await expectAccessible(page);
    } finally {
      await turn;
    }
  });

  test('the live feed refuses a caller who is not signed in', async ({ browser }) => {
    const context = await browser.newContext();
    try {
      const anonymous = await context.request.get(consoleUrl(`/sessions/${seeded().toolSessionId}/live`));
      expect(anonymous.status()).toBe(401);
    } finally {
      await context.close();
    }
  });

  test('an admin finds a message by the beginning of its last word and sees the words found marked', async ({
    page,
  }, testInfo) => {
    const sessionId = await newSession('Bob asks about marmotxylophones');
    await scriptEmulator(emulatorUrl(), [{ kind: 'text', text: 'Noted.' }]);
    const sent = await fetch(`${apiUrl()}/v1/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeded().userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Where do Marmotxylophones route their calls?' }),
    });
    expect(sent.status).toBe(200);

    await page.goto(consoleUrl('/search'));
    await page.getByLabel('Words').fill('route marmotxyl');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search\?q=route\+marmotxyl$/);
    const results = page.getByRole('list', { name: 'Messages found' });
    await expect(results.getByRole('listitem')).toHaveCount(1);
    const marks = results.locator('mark');
    // The last word is a word's beginning; the others are whole words.
    await expect(marks).toHaveText(['Marmotxyl', 'route']);
    await keepScreenshot(page, testInfo, 'search-prefix-highlight');
    await expectAccessible(page);

    // The role filter narrows: the question is the user's, not the assistant's.
    await page.getByLabel('Role').selectOption('assistant');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('No message contains these words.')).toBeVisible();

    await results.or(page.getByText('No message contains these words.')).first().waitFor();
    await page.getByLabel('Role').selectOption('user');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: /Marmotxyl/ }).click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}#message-`));

    // A pasted paragraph is searched by its first 16 words, and the page says how many it left out.
    const words = Array.from({ length: 20 }, (_, index) => `marmotxylophones${index}`).join(' ');
    await page.goto(consoleUrl(`/search?q=${encodeURIComponent(`marmotxyl ${words}`)}`));
    await expect(page.getByRole('note')).toContainText('5 more were left out');
  });
});
