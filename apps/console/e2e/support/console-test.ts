import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';
import type { SeededData } from './seed';

export function consoleUrl(path = ''): string {
  return `${process.env.E2E_CONSOLE_URL}${path}`;
}

export function seeded(): SeededData & { adminKey: string } {
  return {
    ...(JSON.parse(process.env.E2E_SEEDED ?? '{}') as SeededData),
    adminKey: process.env.E2E_ADMIN_KEY ?? '',
  };
}

/** Signs in on the shared console, or on another one (`origin`, e.g. a console of its own API). */
export async function signIn(page: Page, key: string, origin = consoleUrl()): Promise<void> {
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  expect(serious).toEqual([]);
}

/** A full-page screenshot kept with the test's artifacts (apps/console/test-results). */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}
