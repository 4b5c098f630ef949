import { expect, test, type Page } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';
import { LONG_SESSION_MESSAGES, scriptEmulator, type SeededTranscripts } from './support/seed-transcripts';

function transcripts(): SeededTranscripts {
  return JSON.parse(process.env.E2E_TRANSCRIPTS ?? '{}') as SeededTranscripts;
}

async function openSession(page: Page, sessionId: string, hash = ''): Promise<void> {
  await page.goto(consoleUrl(`/sessions/${sessionId}${hash}`));
}

test.describe('the session page', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, seeded().adminKey);
  });

  test('an admin sees a compression event, the truncated tool result with its notice, and the full result on demand', async ({
    page,
  }, testInfo) => {
    const { compressedSessionId, compressedSessionLabel } = transcripts();
    await openSession(page, compressedSessionId);
    await expect(page.getByRole('heading', { level: 1, name: compressedSessionLabel })).toBeVisible();

    const compression = page.getByRole('complementary', { name: 'Scratchpad compression' });
    await expect(compression).toContainText('Scratchpad compressed by truncation');
    await expect(compression).toContainText(/→ [\d,]+ tokens \(budget 256\)/);
    await expect(compression).toContainText('INCOMPLETE notice');

    const card = page.getByRole('article', { name: 'Tool call read_tool_result' });
    await expect(card).toContainText('report-2026-02');
    await expect(card).toContainText('INCOMPLETE');

    await card.getByText('Show the stored result, as the tool returned it').click();
    const full = card.getByRole('region', { name: 'Stored result' });
    // Three numbers where they differ: what the model saw, what is stored, what this page shows.
    await expect(full.getByRole('status')).toContainText(
      /^The model saw [\d,]+ of [\d,]+ stored characters\. Showing characters 1–10,000 of the stored result\.$/,
    );
    await expect(full.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await full.getByRole('button', { name: 'Next page' }).click();
    await expect(full.getByRole('status')).toContainText(
      /Showing characters 10,001–[\d,]+ of the stored result\./,
    );
    // The full output ends with the last line of the page the agent asked for, which the transcript cut.
    await expect(full).toContainText('invoice 1');
    await expect(full.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await full.getByRole('button', { name: 'Previous page' }).click();
    await expect(full.getByRole('status')).toContainText('Showing characters 1–10,000 of the stored result.');

    await expectAccessible(page);
    // The list renders only the rows near the window: back at the top, the whole (short) page is drawn.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByRole('region', { name: 'Turn 1' })).toBeVisible();
    await keepScreenshot(page, testInfo, 'session-compressed');
  });

  test('a 2,000-message transcript loads page by page into a virtualized list whose last message is reachable', async ({
    page,
  }, testInfo) => {
    const { longSessionId, longSessionMessageIds } = transcripts();
    await openSession(page, longSessionId);
    await expect(page.getByText(`${LONG_SESSION_MESSAGES.toLocaleString('en-US')} messages`)).toBeVisible({
      timeout: 20_000,
    });
    const totals = page.getByRole('region', { name: 'Session totals' });
    await expect(totals).toContainText('Turns1000');
    await expect(totals).toContainText('Input tokens40,000');

    const rendered = await page.getByRole('article').count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(100);

    const lastMessage = page.getByRole('article', { name: `Assistant message ${LONG_SESSION_MESSAGES}` });
    await expect(async () => {
      await page.keyboard.press('End');
      await page.mouse.wheel(0, 50_000);
      await expect(lastMessage).toBeInViewport({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    expect(await page.getByRole('article').count()).toBeLessThan(100);
    await expectAccessible(page);
    // The window only: a full-page capture of 2,000 rows is mostly the list's unrendered height.
    await page.screenshot({ path: testInfo.outputPath('session-2000-messages-end.png') });

    // A link to a message in the middle scrolls the list to it and highlights it.
    const middleId = longSessionMessageIds[1_000] ?? '';
    await openSession(page, longSessionId, `#message-${middleId}`);
    const linked = page.getByRole('article', { name: 'User message 1001' });
    await expect(linked).toBeInViewport({ timeout: 15_000 });
    await expect(linked).toHaveClass(/message-highlighted/);
    await expect(linked.getByRole('link', { name: 'Link to message 1001' })).toHaveAttribute(
      'href',
      `#message-${middleId}`,
    );
  });

  test('exports a transcript as Markdown (a download) and as JSON', async ({ page }) => {
    const { compressedSessionId, compressedSessionLabel, longSessionId } = transcripts();
    await openSession(page, compressedSessionId);
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Markdown' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`session-${compressedSessionId}.md`);
    const markdown = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(markdown).toString('utf8');
    expect(text).toContain(`# ${compressedSessionLabel}`);
    expect(text).toContain('## Turn 1');
    expect(text).toContain('**Tool call `read_tool_result`**');
    expect(text).toContain('Scratchpad compressed by truncation');

    const json = await page.request.get(consoleUrl(`/sessions/${longSessionId}/export?format=json`));
    expect(json.status()).toBe(200);
    expect(json.headers()['content-disposition']).toBe(
      `attachment; filename="session-${longSessionId}.json"`,
    );
    const body = (await json.json()) as {
      messages: unknown[];
      totals: { turns: number };
      incomplete: boolean;
    };
    expect(body.messages).toHaveLength(LONG_SESSION_MESSAGES);
    expect(body.totals.turns).toBe(LONG_SESSION_MESSAGES / 2);
    expect(body.incomplete).toBe(false);

    for (const format of ['xml', 'JSON', '']) {
      const refused = await page.request.get(
        consoleUrl(`/sessions/${longSessionId}/export?format=${encodeURIComponent(format)}`),
      );
      expect(refused.status(), `format=${format}`).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { message: 'format: must be json or markdown' } });
    }
  });

  test('a running turn is shown live, then its answer appears without a reload', async ({
    page,
  }, testInfo) => {
    const { userKey } = transcripts();
    const apiUrl = process.env.E2E_API_URL ?? '';
    const created = await fetch(`${apiUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Bob waits for a slow model', model: 'gpt-test' }),
    });
    const session = (await created.json()) as { id: string };
    await scriptEmulator(process.env.E2E_EMULATOR_URL ?? '', [
      { kind: 'text', text: 'Here is the answer that took a while.', delayMs: 6_000 },
    ]);
    const turn = fetch(`${apiUrl}/v1/sessions/${session.id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Take your time.' }),
    });
    try {
      // The turn is under way once its user message is stored.
      await expect(async () => {
        await openSession(page, session.id);
        await expect(page.getByText('A turn is running')).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 10_000 });
      await expect(page.getByText('running', { exact: true })).toBeVisible();
      await keepScreenshot(page, testInfo, 'session-running-turn');

      await expect(page.getByText('Here is the answer that took a while.', { exact: true })).toBeVisible({
        timeout: 20_000,
      });
      await expect(page.getByText('A turn is running')).toHaveCount(0);
      await expect(page.getByText('running', { exact: true })).toHaveCount(0);
    } finally {
      await turn;
    }
  });

  test('a viewer reads the transcript and its full tool results; the routes refuse without a sign-in', async ({
    browser,
  }) => {
    const { compressedSessionId } = transcripts();
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const anonymous = await page.request.get(
        consoleUrl(`/sessions/${compressedSessionId}/tool-results/call_x?offset=0`),
      );
      expect(anonymous.status()).toBe(401);
      const anonymousExport = await page.request.get(consoleUrl(`/sessions/${compressedSessionId}/export`));
      expect(anonymousExport.status()).toBe(401);

      await signIn(page, seeded().viewerKey);
      await openSession(page, compressedSessionId);
      const card = page.getByRole('article', { name: 'Tool call read_tool_result' });
      await card.getByText('Show the stored result, as the tool returned it').click();
      await expect(card.getByRole('region', { name: 'Stored result' })).toBeVisible();
      const badOffset = await page.request.get(
        consoleUrl(`/sessions/${compressedSessionId}/tool-results/call_x?offset=-5`),
      );
      expect(badOffset.status()).toBe(400);
      const unknownCall = await page.request.get(
        consoleUrl(`/sessions/${compressedSessionId}/tool-results/call_unknown?offset=0`),
      );
      expect(unknownCall.status()).toBe(404);
    } finally {
      await context.close();
    }
  });
});
