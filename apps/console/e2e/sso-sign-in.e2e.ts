import {
  startIdentityProvider,
  testIdentityAccounts,
  type IdentityAccount,
  type IdentityProvider,
} from '@agentdesk/provider-emulator';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { alternatePorts, startAlternateStack, type AlternateStack } from './support/alternate-stack';
import { expectAccessible, keepScreenshot } from './support/console-test';

/*
 * Single sign-on through the full redirect in Chromium: the console's button → the API → a real
 * OpenID provider (`oidc-provider`, its login page listing people) → the API's callback → the
 * console. One API + console pair configured for SSO only (no key sign-in), and the provider, for
 * the whole file; every ending is a page of the console that says what happened, never a 500.
 */

const { admin: alice, viewer: victor, noGroup: nora } = testIdentityAccounts;

let provider: IdentityProvider | undefined;
let stack: AlternateStack | undefined;
let apiUrl = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const ports = await alternatePorts();
  apiUrl = `http://127.0.0.1:${ports.api}`;
  provider = await startIdentityProvider({
    redirectUri: `${apiUrl}/v1/sso/callback`,
    accounts: [alice, victor, nora],
  });
  stack = await startAlternateStack(
    {
      AGENTDESK_SSO_ISSUER: provider.issuer,
      AGENTDESK_SSO_CLIENT_ID: provider.clientId,
      AGENTDESK_SSO_CLIENT_SECRET: provider.clientSecret,
      AGENTDESK_SSO_PROVIDER_NAME: 'Example Corp SSO',
      AGENTDESK_SSO_SCOPES: 'openid email profile groups',
      AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: 'example.com',
      AGENTDESK_SSO_ROLE_MAPPING: JSON.stringify({
        claim: 'groups',
        map: { 'agentdesk-admins': 'admin', 'agentdesk-viewers': 'viewer' },
      }),
      AGENTDESK_API_PUBLIC_URL: apiUrl,
      AGENTDESK_CONSOLE_PUBLIC_URL: `http://127.0.0.1:${ports.console}`,
    },
    ports,
  );
});

test.afterAll(async () => {
  await stack?.stop();
  await provider?.close();
});

/** Fails the test on any 5xx answer the browser gets along the way. */
function refuseServerErrors(page: Page): string[] {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
  });
  return failures;
}

/** From the console's sign-in page to the provider's login page, then picks `person` there. */
async function signInAs(page: Page, person: IdentityAccount, startPath = '/sign-in'): Promise<void> {
  await page.goto(`${stack!.consoleUrl}${startPath}`);
  await page.getByRole('link', { name: 'Sign in with Example Corp SSO' }).click();
  await expect(page.getByRole('heading', { name: 'Local identity provider' })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(person.name) }).click();
}

async function expectSignInProblem(page: Page, code: string, sentence: RegExp): Promise<void> {
  await expect(page).toHaveURL(`${stack!.consoleUrl}/sign-in?error=${code}`);
  await expect(page.locator('main').getByRole('alert')).toHaveText(sentence);
  // The page offers the way to try again.
  await expect(page.getByRole('link', { name: 'Sign in with Example Corp SSO' })).toBeVisible();
}

/**
 * Holds the provider's way back to the API: Playwright does not route redirected requests, so the
 * login form's POST is routed, the redirects after it followed by hand with the page's own cookies,
 * and the browser sent to the callback URL `atCallback` returns (the same, changed, or after doing
 * something first: taking the provider down, copying the cookies).
 */
async function holdCallback(page: Page, atCallback: (url: URL) => Promise<URL> | URL): Promise<void> {
  await page.route(`${provider!.issuer}/interaction/**`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    let response = await route.fetch({ maxRedirects: 0 });
    for (let hop = 0; hop < 5; hop++) {
      const location = new URL(response.headers()['location'] ?? '', provider!.issuer);
      if (location.href.startsWith(`${apiUrl}/v1/sso/callback`)) {
        const next = await atCallback(location);
        return route.fulfill({ status: 302, headers: { location: next.href } });
      }
      response = await page.request.get(location.href, { maxRedirects: 0 });
    }
    throw new Error('the provider did not send the browser back to the callback');
  });
}

/** A new browser context (its own cookies) with the given cookies already in it. */
type Cookies = Parameters<BrowserContext['addCookies']>[0];

async function browserWith(browser: Browser, cookies: Cookies): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies(cookies);
  return context;
}

test('with the provider down, the sign-in ends on a page that says so; once it is back the same button works', async ({
  page,
}, testInfo) => {
  const failures = refuseServerErrors(page);
  await provider!.suspend();
  try {
    await page.goto(`${stack!.consoleUrl}/sign-in`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Sign in to the AgentDesk console' }),
    ).toBeVisible();
    // SSO only: no key field on this console.
    await expect(page.getByLabel('API key')).toHaveCount(0);
    await page.getByRole('link', { name: 'Sign in with Example Corp SSO' }).click();
    await expectSignInProblem(page, 'sso-idp-unavailable', /provider cannot be reached/);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sso-provider-down');
  } finally {
    await provider!.resume();
  }
  await signInAs(page, alice);
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  expect(failures).toEqual([]);
});

test('an admin signs in through the provider, lands on the page asked for, shown by name, and the sign-in is audited as oidc', async ({
  page,
}, testInfo) => {
  const failures = refuseServerErrors(page);
  await page.goto(`${stack!.consoleUrl}/audit`);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Faudit$/);
  await page.getByRole('link', { name: 'Sign in with Example Corp SSO' }).click();
  await keepScreenshot(page, testInfo, 'sso-provider-login-page');
  await page.getByRole('button', { name: /Alice Admin/ }).click();

  await expect(page).toHaveURL(`${stack!.consoleUrl}/audit`);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header).toContainText('Alice Admin');
  await expect(header).toContainText('admin');
  const signIn = page
    .getByRole('row')
    .filter({ hasText: 'console.sign-in' })
    .filter({ hasText: 'succeeded' });
  await expect(signIn.first()).toContainText('via oidc');
  await keepScreenshot(page, testInfo, 'sso-signed-in-audit');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect(failures).toEqual([]);
});

test('a viewer gets the viewer role from their group; a person in no mapped group gets a clear refusal, no default role', async ({
  page,
  browser,
}) => {
  const failures = refuseServerErrors(page);
  await signInAs(page, victor);
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Victor Viewer');
  await expect(page.getByRole('link', { name: 'Audit' })).toHaveCount(0);

  const other = await browser.newContext();
  const noGroup = await other.newPage();
  const otherFailures = refuseServerErrors(noGroup);
  await signInAs(noGroup, nora);
  await expectSignInProblem(noGroup, 'sso-no-role', /none of your groups gives you a role/);
  // Not signed in: the console's pages send them back to sign in.
  await noGroup.goto(`${stack!.consoleUrl}/usage`);
  await expect(noGroup).toHaveURL(/\/sign-in\?next=%2Fusage$/);
  await other.close();
  expect([...failures, ...otherFailures]).toEqual([]);
});

test('a callback whose state is not this browser’s sign-in is refused', async ({ page }) => {
  const failures = refuseServerErrors(page);
  // The provider's answer arrives with another state (a forged or mixed-up callback).
  await holdCallback(page, (url) => {
    url.searchParams.set('state', 'not-the-state-of-this-browser');
    return url;
  });
  await signInAs(page, alice);
  await expectSignInProblem(page, 'sso-state-mismatch', /did not start in this browser/);
  expect(failures).toEqual([]);
});

test('a replayed authorization code and a replayed console code are refused, even with the browser’s cookies copied', async ({
  page,
  browser,
}) => {
  const failures = refuseServerErrors(page);
  // Hold the callback, keep a copy of the cookies and both URLs (what an attacker who saw them has).
  let callbackUrl = '';
  let consoleCodeUrl = '';
  let cookiesBeforeCallback: Cookies = [];
  await holdCallback(page, async (url) => {
    callbackUrl = url.href;
    cookiesBeforeCallback = await page.context().cookies();
    return url;
  });
  page.on('request', (request) => {
    if (request.url().startsWith(`${stack!.consoleUrl}/sign-in/sso?code=`)) consoleCodeUrl = request.url();
  });
  await signInAs(page, victor);
  await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  expect(callbackUrl).not.toBe('');
  expect(consoleCodeUrl).not.toBe('');

  // The provider's code again, with the flow cookie it was issued for: the provider refuses a used code.
  const attacker = await browserWith(browser, cookiesBeforeCallback);
  const replay = await attacker.newPage();
  const replayFailures = refuseServerErrors(replay);
  await replay.goto(callbackUrl);
  await expectSignInProblem(replay, 'sso-token-invalid', /could not be verified/);
  // The console's one-time code again, in a browser marked as signing in: traded once only.
  await replay.goto(`${stack!.consoleUrl}/sign-in`);
  await replay.getByRole('link', { name: 'Sign in with Example Corp SSO' }).click();
  await replay.goto(consoleCodeUrl);
  await expectSignInProblem(replay, 'sso-code-invalid', /already used or has expired/);
  await attacker.close();
  expect([...failures, ...replayFailures]).toEqual([]);
});

test('an expired ID token is refused with a page that says the answer could not be verified', async ({
  page,
}) => {
  const failures = refuseServerErrors(page);
  provider!.expireNextIdToken();
  await signInAs(page, alice);
  await expectSignInProblem(page, 'sso-token-invalid', /could not be verified/);
  expect(stack!.apiOutput()).toContain('OAUTH_JWT_TIMESTAMP_CHECK_FAILED');
  expect(failures).toEqual([]);
});

test('the provider going down during a sign-in (after its login page) ends on the provider-unavailable page', async ({
  page,
}) => {
  const failures = refuseServerErrors(page);
  await holdCallback(page, async (url) => {
    await provider!.suspend();
    return url;
  });
  try {
    await signInAs(page, alice);
    await expectSignInProblem(page, 'sso-idp-unavailable', /provider cannot be reached/);
  } finally {
    await provider!.resume();
  }
  expect(failures).toEqual([]);
});
