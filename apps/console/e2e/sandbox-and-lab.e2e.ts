import { expect, test, type Page } from '@playwright/test';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

const threeModels = { gpt: 'gpt-test', claude: 'claude-test', gemini: 'gemini-test' } as const;

/** What the API says about the sandbox image right now (its pin's name, to find its container). */
async function imageStatus(): Promise<{ pin: { name: string; pinned: boolean } }> {
  const response = await fetch(`${process.env.E2E_API_URL}/v1/admin/sandbox/image`, {
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_KEY}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { pin: { name: string; pinned: boolean } };
}

/** The next Anthropic answer of the provider emulator: valid JSON that breaks the schema's limits. */
async function scriptAnthropicAnswer(value: unknown): Promise<void> {
  const response = await fetch(`${process.env.E2E_EMULATOR_URL}/_emulator/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ kind: 'json', value, match: { provider: 'anthropic' } }]),
  });
  expect(response.ok).toBe(true);
}

function imageFact(page: Page, term: string) {
  return page.getByRole('region', { name: 'Image status' }).locator(`dt:text-is("${term}") + dd`);
}

test.describe('an admin in the structured-output lab', () => {
  test('runs a schema on three models and compares the three results side by side', async ({
    page,
  }, testInfo) => {
    await signIn(page, seeded().adminKey);
    await page.getByRole('link', { name: 'Lab' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Structured-output lab' })).toBeVisible();

    // The editor checks the schema as it is typed.
    const editor = page.getByLabel('JSON Schema');
    const check = page.locator('#lab-schema-check');
    await expect(check).toHaveText('Valid JSON Schema.');
    // The example schema is valid: the run button is enabled once the page is interactive.
    await expect(page.getByRole('button', { name: 'Run on 3 models' })).toBeEnabled();
    const example = await editor.inputValue();
    await editor.fill('{"type": "object",');
    await expect(check).toContainText('Not JSON:');
    await expect(page.getByRole('button', { name: /^Run on/ })).toBeDisabled();
    await editor.fill('{"type": "text"}');
    await expect(check).toContainText('Not a valid JSON Schema: at /type');
    await editor.fill(example);
    await expect(check).toHaveText('Valid JSON Schema.');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'lab');

    await page.getByLabel('Name', { exact: true }).fill('Three-way review summary');
    for (const [family, model] of Object.entries(threeModels))
      await page.getByLabel(`${family} model`).fill(model);
    await scriptAnthropicAnswer({ title: 'Battery', rating: 9, tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
    await page.getByRole('button', { name: 'Run on 3 models' }).click();

    await expect(page).toHaveURL(/\/lab\/runs\/[^/]+$/);
    const runUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name: 'Three-way review summary' })).toBeVisible();
    for (const model of Object.values(threeModels)) {
      const panel = page.getByRole('article', { name: `Result of ${model}` });
      await expect(panel).toBeVisible();
      if (model !== threeModels.claude)
        await expect(panel.getByText('Valid against the schema.')).toBeVisible();
      await expect(panel.getByRole('heading', { name: /Lowered schema/ })).toBeVisible();
      await panel.getByText(`The schema ${model} was sent`).click();
      await expect(panel.getByLabel(`Lowered schema of ${model}`)).toContainText('"properties"');
      await expect(panel.getByLabel(`Parsed JSON of ${model}`)).toContainText('"title"');
      await expect(panel.getByText(/\d+ in \/ \d+ out/)).toBeVisible();
    }
    // Claude's answer breaks two limits: each error points at its path and the value found there.
    const errors = page.getByRole('list', { name: 'Validation errors of claude-test' });
    await expect(errors.getByRole('listitem')).toHaveCount(2);
    await expect(errors.getByRole('listitem').filter({ hasText: /^rating:/ })).toContainText(
      'the answer has 9',
    );
    await expect(errors.getByRole('listitem').filter({ hasText: /^tags:/ })).toContainText('maxItems');
    await expect(page.getByRole('article', { name: 'Result of claude-test' })).toContainText('invalid');
    // Each provider's dialect changed the schema its own way, and the change report says how.
    await expect(page.getByRole('list', { name: 'What lowering changed for claude-test' })).toContainText(
      '/properties/rating minimum moved-to-description',
    );
    await expect(page.getByRole('list', { name: 'What lowering changed for gemini-test' })).toContainText(
      'additionalProperties dropped',
    );
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'lab-run');

    // The run is in the history and reopens at its own URL.
    await page.getByRole('link', { name: '← Structured-output lab' }).click();
    await page.getByRole('link', { name: 'Three-way review summary' }).first().click();
    await expect(page).toHaveURL(runUrl);
    await expect(page.getByRole('article')).toHaveCount(3);
  });
});

test.describe('an admin on the sandbox page', () => {
  test('rebuilds the image watching the log stream, finds the pins on the image card only, and re-pins', async ({
    page,
  }, testInfo) => {
    await signIn(page, seeded().adminKey);
    await page.getByRole('link', { name: 'Sandbox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sandbox' })).toBeVisible();
    await expect(imageFact(page, 'Tag')).toHaveText('agentdesk-console-e2e:latest');

    await expect(page.getByLabel('Force (rebuild even when the image is current)')).toBeChecked();
    await expect(page.getByRole('button', { name: 'Rebuild image' })).toBeEnabled();
    await page.getByRole('button', { name: 'Rebuild image' }).click();
    const log = page.getByRole('log', { name: 'Build log lines' });
    // The log fills while the build runs, before it ends.
    await expect(log.getByText(/^Step \d+\/\d+:/).first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText('Build succeeded: a new image was built.')).toBeVisible({ timeout: 60_000 });
    await expect(log.getByText(/^Build built: sha256:/)).toBeVisible();
    // The history shows the admin's forced build, finished, with the image id it produced.
    const history = page.getByRole('region', { name: 'Build history' });
    await expect(history.getByRole('row').nth(1)).toContainText('built');
    await expect(history.getByRole('row').nth(1)).toContainText('(forced)');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sandbox-rebuilt');

    // The pins keep the image through prunes: they show on the image card, never among the
    // containers one may remove; a re-pin checks them (the rebuild already pinned the new image).
    const { pin } = await imageStatus();
    await expect(imageFact(page, 'Pin')).toContainText(/^pinned/);
    await expect(page.getByRole('button', { name: `Remove ${pin.name}` })).toHaveCount(0);

    await page.getByRole('button', { name: 'Re-pin image' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Already pinned: nothing to do.' }),
    ).toBeVisible();
    await expect(imageFact(page, 'Pin')).toContainText(/^pinned/);
    expect((await imageStatus()).pin.pinned).toBe(true);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sandbox-repinned');
  });
});

test.describe('a viewer', () => {
  test('reads the sandbox and the lab without any control that changes the sandbox', async ({
    page,
  }, testInfo) => {
    await signIn(page, seeded().viewerKey);
    await page.goto(consoleUrl('/sandbox'));
    await expect(imageFact(page, 'Tag')).toHaveText('agentdesk-console-e2e:latest');
    await expect(page.getByRole('region', { name: 'Build history' }).getByRole('row')).not.toHaveCount(0);
    for (const name of [/Rebuild/, /Re-pin/, /^Remove/, /Force/])
      await expect(page.getByRole('button', { name })).toHaveCount(0);
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'viewer-sandbox');

    await page.goto(consoleUrl('/lab'));
    await expect(page.getByRole('heading', { level: 1, name: 'Structured-output lab' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Run history' })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'viewer-lab');
  });

  test('is refused by the API when forcing a rebuild, a re-pin or a removal', async ({ page }) => {
    await signIn(page, seeded().viewerKey);
    const origin = consoleUrl();
    const forced = [
      page.request.post(consoleUrl('/sandbox/rebuild'), { headers: { origin }, data: { force: true } }),
      page.request.post(consoleUrl('/sandbox/repin'), { headers: { origin } }),
      page.request.delete(consoleUrl('/sandbox/containers/agentdesk-anything'), { headers: { origin } }),
    ];
    for (const response of await Promise.all(forced)) {
      expect(response.status(), response.url()).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    expect(await imageStatus()).toMatchObject({ pin: { pinned: true } });
  });
});

test.describe('the sandbox and lab route handlers', () => {
  test('refuse a mutation posted from another site, even with an admin’s sign-in', async ({ page }) => {
    await signIn(page, seeded().adminKey);
    for (const origin of ['http://evil.example', 'null', undefined]) {
      const headers: Record<string, string> = origin === undefined ? {} : { origin };
      const responses = await Promise.all([
        page.request.post(consoleUrl('/sandbox/rebuild'), { headers, data: { force: true } }),
        page.request.post(consoleUrl('/sandbox/repin'), { headers }),
        page.request.delete(consoleUrl('/sandbox/containers/agentdesk-anything'), { headers }),
        page.request.post(consoleUrl('/lab/runs'), { headers, data: {} }),
      ]);
      for (const response of responses) {
        expect(response.status(), `${response.url()} from ${origin}`).toBe(403);
        expect(await response.json()).toMatchObject({ error: { message: 'Cross-site request refused' } });
      }
    }
  });

  test('refuse every call without a sign-in', async ({ request }) => {
    const origin = consoleUrl();
    const responses = await Promise.all([
      request.post(consoleUrl('/sandbox/rebuild'), { headers: { origin }, data: { force: true } }),
      request.post(consoleUrl('/lab/runs'), { headers: { origin }, data: {} }),
      request.get(consoleUrl('/sandbox/builds/00000000-0000-4000-8000-000000000000/events')),
    ]);
    for (const response of responses) expect(response.status(), response.url()).toBe(401);
  });

  test('pass the API’s own refusal of a bad lab run through, naming the field', async ({ page }) => {
    await signIn(page, seeded().adminKey);
    const response = await page.request.post(consoleUrl('/lab/runs'), {
      headers: { origin: consoleUrl() },
      data: { name: 'x', schema: { type: 'object' }, prompt: 'p', targets: [] },
    });
    expect(response.status()).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('targets') },
    });
  });
});
