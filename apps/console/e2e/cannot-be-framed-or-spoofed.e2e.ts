import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { consoleUrl, seeded, signIn } from './support/console-test';
import { freePort, startProcess, stopProcess, waitForExit, waitForHttp } from './support/processes';

const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** A page of another origin (another loopback port), as an attacker would serve it. */
async function serveAttackerPage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** Every Content-Security-Policy complaint Chromium logs on a page from now on. */
function collectPolicyViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

function nonceOf(response: APIResponse): string {
  const policy = response.headers()['content-security-policy'] ?? '';
  return /'nonce-([^']+)'/.exec(policy)?.[1] ?? '';
}

function expectSecurityHeaders(response: APIResponse, what: string): void {
  const headers = response.headers();
  expect(headers['content-security-policy'], what).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('same-origin');
  expect(headers['permissions-policy'], what).toContain('camera=()');
  // Served over plain http here: no HSTS (see the secure-cookie test below).
  expect(headers['strict-transport-security'], what).toBeUndefined();
}

async function activeKeyCount(): Promise<number> {
  const response = await fetch(`${process.env.E2E_API_URL}/v1/admin/api-keys?limit=100&reason=e2e`, {
    headers: { authorization: `Bearer ${seeded().adminKey}` },
  });
  const page = (await response.json()) as { items: { revokedAt: string | null }[] };
  return page.items.filter((key) => key.revokedAt === null).length;
}

test.describe('a console that cannot be framed', () => {
  test('a page on another loopback port frames /keys for a signed-in admin: the frame stays empty and no click revokes', async ({
    page,
  }) => {
    const data = seeded();
    await signIn(page, data.adminKey);
    const keysBefore = await activeKeyCount();
    // The attack that worked: the console's keys page, invisible, under a button that invites a click.
    const attacker = await serveAttackerPage(`<!doctype html><html lang="en"><title>Win a prize</title>
      <body><button style="position:absolute;top:300px;left:900px">Claim your prize</button>
      <iframe name="console" title="console" src="${consoleUrl('/keys')}" width="1200" height="700"
        style="opacity:0.01;position:absolute;top:0;left:0"></iframe></body></html>`);
    try {
      const violations = collectPolicyViolations(page);
      await page.goto(attacker.url);
      await expect.poll(() => violations.join('\n')).toContain('frame-ancestors');
      const framed = page.frameLocator('iframe[name="console"]');
      await expect(framed.getByRole('heading', { name: 'Keys and users' })).toHaveCount(0);
      await expect(framed.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
      // Click where the frame's revoke buttons and confirmations would be: nothing reaches the console.
      for (const y of [250, 300, 350, 400, 450, 500])
        for (const x of [900, 1000, 1100]) await page.mouse.click(x, y);
      expect(await activeKeyCount()).toBe(keysBefore);
    } finally {
      attacker.server.close();
    }
    // The same page opened by the admin directly still works.
    await page.goto(consoleUrl('/keys'));
    await expect(page.getByRole('heading', { level: 1, name: 'Keys and users' })).toBeVisible();
  });

  test('every answer carries the security headers, and the script nonce changes per request', async ({
    page,
    request,
  }) => {
    const first = await request.get(consoleUrl('/sign-in'));
    const second = await request.get(consoleUrl('/sign-in'));
    expectSecurityHeaders(first, 'a page');
    const [firstNonce, secondNonce] = [nonceOf(first), nonceOf(second)];
    expect(firstNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(secondNonce).not.toBe(firstNonce);
    // Next put this request's nonce on every script of the page, and there is no other script.
    const scripts = [...(await first.text()).matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${firstNonce}"`);
    const policy = first.headers()['content-security-policy'] ?? '';
    expect(policy).toContain(`script-src 'self' 'nonce-${firstNonce}' 'strict-dynamic'`);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);

    // Route handlers (a refusal, a redirect), the not-found page and static files too.
    const refused = await request.post(consoleUrl('/keys/create'), {
      headers: { origin: 'http://evil.example' },
    });
    expect(refused.status()).toBe(403);
    expectSecurityHeaders(refused, 'a route handler’s refusal');
    const redirected = await request.post(consoleUrl('/auth/sign-out'), {
      headers: { origin: consoleUrl() },
      maxRedirects: 0,
    });
    expect(redirected.status()).toBe(303);
    expectSecurityHeaders(redirected, 'a route handler’s redirect');
    const missing = await request.get(consoleUrl('/no-such-page'));
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toContain('Page not found');
    expectSecurityHeaders(missing, 'the not-found page');
    const chunk = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(await first.text())?.[1];
    expect(chunk).toBeDefined();
    expectSecurityHeaders(await request.get(consoleUrl(chunk)), 'a static chunk');

    // The console works under its policy: pages render and their scripts run, with no complaint.
    const violations = collectPolicyViolations(page);
    const data = seeded();
    await signIn(page, data.adminKey);
    for (const path of [
      '/sessions',
      `/sessions/${data.toolSessionId}`,
      '/audit',
      '/usage',
      '/search?q=report',
      '/lab',
    ]) {
      await page.goto(consoleUrl(path));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
    // The lab checks a schema as it is typed (on the console's server: ajv's generated code would need eval).
    await page.goto(consoleUrl('/lab'));
    await page.getByLabel('JSON Schema').fill('{"type": "text"}');
    await expect(page.locator('#lab-schema-check')).toContainText('Not a valid JSON Schema: at /type');
    await page.goto(consoleUrl('/keys'));
    // A client component's state changes only when its script runs.
    await page.getByRole('button', { name: 'Revoke QA viewer' }).click();
    await expect(page.getByText('Revoke “QA viewer”? Its next request is refused.')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(consoleUrl('/no-such-page'));
    expect(violations).toEqual([]);
  });

  test('the API’s OpenAPI page works under its own policy, and the API’s JSON may not be framed', async ({
    page,
    request,
  }) => {
    const apiUrl = process.env.E2E_API_URL ?? '';
    const violations = collectPolicyViolations(page);
    await page.goto(`${apiUrl}/docs`);
    await expect(page.getByRole('heading', { name: /AgentDesk API/ })).toBeVisible();
    await expect(page.getByText('/v1/sessions', { exact: true }).first()).toBeVisible();
    expect(violations).toEqual([]);
    const json = await request.get(`${apiUrl}/healthz`);
    expect(json.headers()['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(json.headers()['x-frame-options']).toBe('DENY');
  });

  test('behind HTTPS (secure cookie on) pages carry HSTS and upgrade insecure requests', async ({
    request,
  }) => {
    const port = await freePort();
    const secureConsole = startProcess(
      'secure console',
      join(workspaceRoot, 'node_modules/.bin/next'),
      ['start', 'apps/console', '--hostname', '127.0.0.1', '--port', String(port)],
      {
        cwd: workspaceRoot,
        env: {
          ...process.env,
          NEXT_TELEMETRY_DISABLED: '1',
          AGENTDESK_API_URL: process.env.E2E_API_URL,
          AGENTDESK_CONSOLE_SECURE_COOKIE: 'true',
        },
      },
    );
    try {
      await waitForHttp(`http://127.0.0.1:${port}/sign-in`, secureConsole);
      const response = await request.get(`http://127.0.0.1:${port}/sign-in`);
      expect(response.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers()['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      stopProcess(secureConsole);
      await waitForExit(secureConsole);
    }
  });
});

test.describe('a console that cannot be spoofed', () => {
  const attackerText = 'Your account is locked. Call +1 555 0100 now';
  const encoded = encodeURIComponent(attackerText);

  test('banners come from codes only: a URL’s words never appear as the console’s message', async ({
    page,
    browser,
  }) => {
    await signIn(page, seeded().adminKey);
    for (const path of [
      `/keys?problem=${encoded}&revoked-label=${encoded}&notice=${encoded}&error=${encoded}&message=${encoded}`,
      `/sessions?status=${encoded}&from=${encoded}&to=${encoded}`,
      `/audit?from=${encoded}&to=${encoded}`,
      `/usage?groupBy=${encoded}&from=${encoded}`,
      `/search?q=${encoded}`,
    ]) {
      await page.goto(consoleUrl(path));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      for (const role of ['alert', 'status', 'note'] as const)
        for (const banner of await page.locator('main').getByRole(role).allTextContents())
          expect(banner, `${path}: ${role}`).not.toContain('locked');
      await expect(page.locator('main').getByText(attackerText)).toHaveCount(0);
    }
    // A known code shows the console's own words.
    await page.goto(consoleUrl('/keys?notice=key-revoked'));
    await expect(page.getByRole('status')).toHaveText('The key was revoked: its next request is refused.');

    // Signed out, the sign-in page's error is a code too.
    const signedOut = await browser.newPage();
    await signedOut.goto(consoleUrl(`/sign-in?error=${encoded}`));
    await expect(signedOut.getByRole('heading', { name: 'Sign in to the AgentDesk console' })).toBeVisible();
    await expect(signedOut.locator('main').getByRole('alert')).toHaveCount(0);
    await expect(signedOut.getByText(attackerText)).toHaveCount(0);
    await signedOut.close();
  });

  test('a signed-out admin opening a session returns to it after sign-in, never to another site', async ({
    page,
  }) => {
    const data = seeded();
    const asked = `/sessions/${data.toolSessionId}?from=audit`;
    await page.goto(consoleUrl(asked));
    await expect(page).toHaveURL(
      consoleUrl(`/sign-in?next=${encodeURIComponent(asked).replace(/%20/g, '+')}`),
    );
    // A wrong key first: the page asked for is kept through the refusal.
    await page.getByLabel('API key').fill(`adk_${'0'.repeat(32)}_${'A'.repeat(43)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('The API does not accept this key')).toBeVisible();
    await page.getByLabel('API key').fill(data.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(consoleUrl(asked));
    await expect(page.getByRole('heading', { level: 1, name: data.toolSessionLabel })).toBeVisible();

    // Signed in, a hostile `next` is ignored: the sessions page, on this console.
    for (const next of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/%2F%2Fevil.example',
    ]) {
      await page.goto(consoleUrl(`/sign-in?next=${encodeURIComponent(next)}`));
      await expect(page, next).toHaveURL(consoleUrl('/sessions'));
    }
  });

  test('a hostile sign-in form posting another site as `next` lands on the sessions page', async ({
    page,
  }) => {
    await page.goto(consoleUrl('/sign-in?next=%2F%2Fevil.example'));
    // The page refused it already (no hidden field); a hand-made form field is refused by the handler.
    await expect(page.locator('input[name="next"]')).toHaveCount(0);
    const response = await page.request.post(consoleUrl('/auth/sign-in'), {
      headers: { origin: consoleUrl() },
      form: { apiKey: seeded().adminKey, next: '//evil.example' },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(303);
    expect(response.headers()['location']).toBe('/sessions');
  });

  test('a key label with a right-to-left override shows the override instead of obeying it', async ({
    page,
  }) => {
    const data = seeded();
    const label = 'ops \u202Eyek nimda';
    const created = await fetch(`${process.env.E2E_API_URL}/v1/admin/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${data.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'viewer', label, externalId: 'e2e-spoofed-label' }),
    });
    expect(created.status).toBe(201);
    await signIn(page, data.adminKey);
    await page.goto(consoleUrl('/keys'));
    await expect(page.getByRole('cell', { name: 'ops ⟨U+202E⟩yek nimda', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Revoke ops ⟨U+202E⟩yek nimda' })).toBeVisible();
  });
});
