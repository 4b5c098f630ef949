import { resolve } from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';

/** The list, plus a JSON report of every test's duration when `npm test` collects timings (scripts/test-run). */
const timingsDirectory = process.env.AGENTDESK_TEST_TIMINGS_DIR;
const reporter: ReporterDescription[] = timingsDirectory
  ? [['list'], ['json', { outputFile: resolve(timingsDirectory, 'console.playwright.json') }]]
  : [['list']];

/**
 * Debian's Chromium headless shell (the build Playwright itself runs for headless tests), never a
 * browser Playwright downloads (`playwright install` is not used; the test command installs the
 * `chromium-headless-shell` package when it is missing). The same Blink and V8 as the full browser
 * without its UI layer: all 81 of these tests took 249 s of machine CPU with it, 349 s with the full
 * `chromium` (docs/TESTING.md). Playwright gives every launch a fresh temporary profile
 * (user-data-dir). The flags keep Chromium off the (closed) network.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A bound on a hang, not a speed target (as the API's tests' 180 s): on 2 cores beside the API's
  // tests a seven-step test took 31 s and failed at 30 s. Each step's own wait names what it
  // waited for when it gives up.
  timeout: 180_000,
  reporter,
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: '/usr/bin/chromium-headless-shell',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
