import { expect, test } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';
import { scriptEmulator } from './support/seed-transcripts';

async function callApi<T>(key: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${process.env.E2E_API_URL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

test.describe('model prices and cost', () => {
  test('an admin adds a price for a model; its next calls cost money on the usage page and the session, unpriced ones say unknown', async ({
    page,
  }, testInfo) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    await page.getByRole('link', { name: 'Prices' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Model prices' })).toBeVisible();
    const current = page.getByRole('table', { name: 'Prices in effect now' });
    const mini = current
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'gpt-4o-mini', exact: true }) });
    await expect(mini).toContainText('$0.15');

    const form = page.getByRole('form', { name: 'Add a price version' });
    await form.getByLabel('Model (exact name)').fill('gpt-e2e-priced');
    await form.getByLabel('Provider').selectOption('openai');
    await form.getByLabel('Input $/M', { exact: true }).fill('2.50');
    await form.getByLabel('Output $/M', { exact: true }).fill('10');
    await form.getByRole('button', { name: 'Add price' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Added a price for gpt-e2e-priced.' }),
    ).toBeVisible();
    const added = current.getByRole('row').filter({ hasText: 'gpt-e2e-priced' });
    await expect(added).toContainText('$2.50');
    await expect(added).toContainText('$10.00');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'prices-added');

    // A turn on the priced model: 1,000 input and 100 output tokens = $0.0035.
    const session = await callApi<{ id: string }>(data.userKey, '/v1/sessions', {
      label: 'Priced turn',
      model: 'gpt-e2e-priced',
    });
    await scriptEmulator(process.env.E2E_EMULATOR_URL ?? '', [
      { kind: 'text', text: 'Priced answer', usage: { inputTokens: 1_000, outputTokens: 100 } },
    ]);
    await callApi(data.userKey, `/v1/sessions/${session.id}/messages`, { content: 'How much?' });

    // Usage events are written in batches (about a second): read the page until the call is there.
    await expect(async () => {
      await page.goto(consoleUrl('/usage?groupBy=model'));
      const table = page.getByRole('table', { name: 'Tokens per UTC day and model' });
      await expect(table.getByRole('row').filter({ hasText: 'gpt-e2e-priced' })).toContainText('$0.0035', {
        timeout: 500,
      });
    }).toPass({ timeout: 15_000 });
    const table = page.getByRole('table', { name: 'Tokens per UTC day and model' });
    // The seeded calls' model has no price: unknown, with why in the title — never $0.
    const unpriced = table.getByRole('row').filter({ hasText: 'gpt-test' }).first().getByText('unknown');
    await expect(unpriced).toHaveAttribute('title', /no price/);
    await page.getByRole('navigation', { name: 'Chart by' }).getByRole('link', { name: 'Cost' }).click();
    await expect(page).toHaveURL(/measure=cost/);
    await expect(page.getByRole('img', { name: /Cost per day by model/ })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Legend' })).toContainText('gpt-e2e-priced $0.0035');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'usage-by-cost');

    await page.goto(consoleUrl(`/sessions/${session.id}`));
    await expect(page.getByRole('region', { name: 'Session totals' })).toContainText('$0.0035');
  });
});
