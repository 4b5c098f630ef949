import { expect, test } from '@playwright/test';
import { startAlternateStack, type AlternateStack } from './support/alternate-stack';
import { consoleUrl, expectAccessible, keepScreenshot, seeded, signIn } from './support/console-test';

test.describe('the sandbox page when the API has no sandbox to show', () => {
  // Two more API + console pairs, started together once for both tests: one with the sandbox
  // turned off (its routes answer 404), one whose Docker engine address refuses (503).
  let disabled: AlternateStack | undefined;
  let engineDown: AlternateStack | undefined;
  test.beforeAll(async () => {
    [disabled, engineDown] = await Promise.all([
      startAlternateStack({ AGENTDESK_SANDBOX_ENABLED: 'false' }),
      startAlternateStack({
        AGENTDESK_SANDBOX_ENABLED: 'true',
        // A unix socket nobody listens on: every engine call is refused at once.
        DOCKER_HOST: 'unix:///tmp/agentdesk-console-e2e-no-engine/docker.sock',
        AGENTDESK_SANDBOX_START_RETRY_MS: '60000',
      }),
    ]);
  });
  test.afterAll(async () => {
    await Promise.all([disabled?.stop(), engineDown?.stop()]);
  });

  test('an admin reads that the sandbox is turned off on this server, with no control to use', async ({
    page,
  }, testInfo) => {
    const stack = disabled!;
    await signIn(page, stack.adminKey, stack.consoleUrl);
    await page.getByRole('link', { name: 'Sandbox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sandbox' })).toBeVisible();
    await expect(page.getByRole('note')).toContainText('The sandbox is turned off on this API server');
    await expect(page.getByRole('note')).toContainText('AGENTDESK_SANDBOX_ENABLED=false');
    for (const name of [/Rebuild/, /Re-pin/, /^Remove/])
      await expect(page.getByRole('button', { name })).toHaveCount(0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sandbox-disabled');
  });

  test('an admin reads that the Docker engine is unreachable, and still sees the build history', async ({
    page,
  }, testInfo) => {
    const stack = engineDown!;
    await signIn(page, stack.adminKey, stack.consoleUrl);
    await page.getByRole('link', { name: 'Sandbox' }).click();
    const status = page.getByRole('region', { name: 'Image status' });
    await expect(status.getByRole('alert')).toContainText('Docker engine unreachable');
    await expect(status.getByRole('alert')).toContainText('until the Docker engine answers again');
    // The API's sentence and the page's own read as two sentences, not "at one.. The image".
    await expect(status.getByRole('alert')).not.toContainText('..');
    // Nothing that needs the engine is offered; the history (kept by the API) is still shown.
    await expect(page.getByRole('button', { name: 'Rebuild image' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Re-pin image' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Build history' })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sandbox-engine-down');
  });
});

test.describe('the containers table', () => {
  test('keeps every Remove button and build log link in view at 1280 px and stacks rows on a phone', async ({
    page,
  }, testInfo) => {
    await signIn(page, seeded().adminKey);
    for (const viewport of [
      { width: 1280, height: 800, name: 'desktop' },
      { width: 390, height: 844, name: 'phone' },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(consoleUrl('/sandbox'));
      const table = page.getByRole('table', { name: 'Sandbox containers' });
      const removes = table.getByRole('button', { name: /^Remove / });
      await expect(removes.first()).toBeVisible();
      await page.getByRole('heading', { name: 'Containers' }).scrollIntoViewIfNeeded();
      // Without scrolling the table sideways, each Remove button is on screen once its row is.
      for (const remove of await removes.all()) {
        await remove.evaluate((element) => element.closest('tr')?.scrollIntoView({ block: 'center' }));
        await expect(remove, viewport.name).toBeInViewport({ ratio: 1 });
        // "Remove" reads as one word on one line (not "Remo / ve" in a squeezed column).
        const lines = await remove.evaluate((element) => {
          const text = document.createRange();
          text.selectNodeContents(element);
          return new Set([...text.getClientRects()].map((box) => Math.round(box.top))).size;
        });
        expect(lines, viewport.name).toBe(1);
      }
      // The page itself never scrolls sideways: nothing sticks out unless a scrolling box holds it.
      const sticksOut = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const clipped = (element: Element) => {
          for (let box = element.parentElement; box !== null; box = box.parentElement)
            if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(box).overflowX)) return true;
          return false;
        };
        return [...document.body.querySelectorAll('*')]
          .filter((element) => element.getBoundingClientRect().right > width + 0.5 && !clipped(element))
          .map(
            (element) =>
              `${element.tagName.toLowerCase()}${[...element.classList].map((name) => `.${name}`).join('')}`,
          );
      });
      expect(sticksOut, viewport.name).toEqual([]);
      // The build history reads without sideways scrolling too (a card per build on a phone): each
      // row's last cell, its log link, is on screen once the row is.
      const logLinks = page
        .getByRole('table', { name: 'Builds, newest first' })
        .getByRole('link', { name: /^Log of the build started / });
      await expect(logLinks.first()).toBeVisible();
      for (const link of await logLinks.all()) {
        await link.evaluate((element) => element.closest('tr')?.scrollIntoView({ block: 'center' }));
        await expect(link, viewport.name).toBeInViewport({ ratio: 1 });
      }
      // The button is reached with the keyboard, and confirming stays on screen too.
      const first = removes.first();
      await first.focus();
      await page.keyboard.press('Enter');
      const confirm = table.getByRole('button', { name: /^Confirm removal of / });
      await expect(confirm).toBeInViewport({ ratio: 1 });
      await expect(confirm).toBeFocused();
      await table.getByRole('button', { name: 'Cancel' }).click();
      await expect(first).toBeFocused();
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `sandbox-containers-${viewport.name}`);
    }
  });
});
