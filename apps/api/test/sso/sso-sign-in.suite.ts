import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startIdentityProvider,
  testIdentityAccounts,
  type IdentityProvider,
} from '@agentdesk/provider-emulator';
import type { Engine } from '../support/engines';
import { startTestApi, type TestApi } from '../support/test-api';

/*
 * Single sign-on against a real OpenID provider (`oidc-provider` on a loopback port), driven over
 * HTTP the way a browser would: redirects followed by hand with a cookie jar. The API is reached by
 * injection at its public URL; the console is never contacted — the flow ends on its URL, whose
 * `code` the test trades as the console's server would.
 */

const apiPublicUrl = 'http://127.0.0.1:39001';
const consolePublicUrl = 'http://127.0.0.1:39002';

const { admin: alice, viewer: victor, noGroup: nobody, outsider } = testIdentityAccounts;

/** Where a sign-in ended on the console's URL. */
type Ending = { readonly code: string } | { readonly problem: string };

/** A browser's cookies, by name (host-wide: the API and the provider share 127.0.0.1, as in a browser). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(setCookies: readonly string[]): void {
    for (const header of setCookies) {
      const [pair = ''] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = /max-age=0/i.test(header) || /expires=Thu, 01 Jan 1970/i.test(header);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  copy(): CookieJar {
    const copy = new CookieJar();
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }
}

/** The scenarios, on one engine. */
export function describeSsoSignIn(engine: Engine): void {
  describe(`single sign-on with OpenID Connect (${engine})`, () => {
    let provider: IdentityProvider;
    let test: TestApi;

    const ssoEnvironment = (issuer: string, clientSecret: string): Record<string, string> => ({
      AGENTDESK_SSO_ISSUER: issuer,
      AGENTDESK_SSO_CLIENT_ID: 'agentdesk-test',
      AGENTDESK_SSO_CLIENT_SECRET: clientSecret,
      AGENTDESK_SSO_PROVIDER_NAME: 'Test IdP',
      AGENTDESK_SSO_SCOPES: 'openid email profile groups',
      AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: 'example.com',
      AGENTDESK_SSO_ROLE_MAPPING: JSON.stringify({
        claim: 'groups',
        map: { 'agentdesk-admins': 'admin', 'agentdesk-viewers': 'viewer' },
      }),
      AGENTDESK_API_PUBLIC_URL: apiPublicUrl,
      AGENTDESK_CONSOLE_PUBLIC_URL: consolePublicUrl,
    });

    beforeAll(async () => {
      provider = await startIdentityProvider({
        clientId: 'agentdesk-test',
        redirectUri: `${apiPublicUrl}/v1/sso/callback`,
        accounts: [alice, victor, nobody, outsider],
      });
      test = await startTestApi(engine, ssoEnvironment(provider.issuer, provider.clientSecret));
    });
    afterAll(async () => {
      await test?.close();
      await provider?.close();
    });

    /** One request as the browser sends it: to the API by injection, to the provider over HTTP. */
    async function browse(
      url: string,
      jar: CookieJar,
    ): Promise<{ status: number; location: string | undefined }> {
      if (url.startsWith(apiPublicUrl)) {
        const response = await test.request({
          method: 'GET',
          url: url.slice(apiPublicUrl.length),
          headers: { cookie: jar.header() },
        });
        const setCookie = response.headers['set-cookie'];
        jar.store(setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]);
        const location = response.headers['location'];
        return { status: response.statusCode, location: typeof location === 'string' ? location : undefined };
      }
      const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
      jar.store(response.headers.getSetCookie());
      const location = response.headers.get('location');
      return {
        status: response.status,
        location: location === null ? undefined : new URL(location, url).href,
      };
    }

    /** Follows redirects from `url` until the browser lands on the console; returns where, and every URL passed. */
    async function follow(url: string, jar: CookieJar): Promise<{ ending: Ending; visited: string[] }> {
      const visited: string[] = [];
      let next = url;
      for (let hop = 0; hop < 20; hop += 1) {
        if (next.startsWith(consolePublicUrl)) {
          const landed = new URL(next);
          expect(landed.pathname).toBe('/sign-in/sso');
          const code = landed.searchParams.get('code');
          return {
            ending: code !== null ? { code } : { problem: landed.searchParams.get('problem') ?? '' },
            visited,
          };
        }
        visited.push(next);
        const answer = await browse(next, jar);
        // Never a 500 (nor any other dead end): every stop redirects until the console.
        expect(answer.status, next).toBeGreaterThanOrEqual(300);
        expect(answer.status, next).toBeLessThan(400);
        next = answer.location!;
      }
      throw new Error('too many redirects');
    }

    async function signIn(
      subject: string,
      jar = new CookieJar(),
    ): Promise<{ ending: Ending; visited: string[] }> {
      provider.signInAs(subject);
      return follow(`${apiPublicUrl}/v1/sso/start`, jar);
    }

    async function exchange(code: string) {
      return test.request({
        method: 'POST',
        url: '/v1/sso/exchange',
        body: { code, userAgent: 'test browser' },
      });
    }

    async function me(token: string) {
      return test.request({ method: 'GET', url: '/v1/me', headers: { 'x-console-session': token } });
    }

    async function signInToSession(
      subject: string,
    ): Promise<{ token: string; userId: string; sessionId: string }> {
      const { ending } = await signIn(subject);
      expect(ending).toHaveProperty('code');
      const response = await exchange((ending as { code: string }).code);
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json<{
        token: string;
        session: { id: string; userId: string; wayIn: string };
      }>();
      expect(created.session.wayIn).toBe('oidc');
      return { token: created.token, userId: created.session.userId, sessionId: created.session.id };
    }

    it('offers single sign-on on the console, without key sign-in unless allowed', async () => {
      const response = await test.request({ method: 'GET', url: '/v1/sso' });
      expect(response.json()).toEqual({
        sso: { providerName: 'Test IdP', startUrl: `${apiPublicUrl}/v1/sso/start` },
        keySignIn: false,
      });
    });

    it('signs an admin in with code + PKCE, state and nonce, and provisions them with name, email and subject', async () => {
      const { ending, visited } = await signIn(alice.subject);
      const authorize = new URL(visited.find((url) => url.startsWith(provider.issuer))!);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('state')).toMatch(/.{20,}/);
      expect(authorize.searchParams.get('nonce')).toMatch(/.{20,}/);
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${apiPublicUrl}/v1/sso/callback`);

      const response = await exchange((ending as { code: string }).code);
      expect(response.statusCode, response.body).toBe(201);
      const { token, session } = response.json<{ token: string; session: { userId: string } }>();
      const identity = await me(token);
      expect(identity.statusCode).toBe(200);
      expect(identity.json()).toMatchObject({ role: 'admin' });

      const user = await test.database.repositories.users.getById(session.userId);
      expect(user.displayName).toBe('Alice Admin');
      // The sign-in is in the audit log, with the person as its actor and the session as its target.
      const audit = await test.database.repositories.audit.list({}, {});
      expect(
        audit.items.find((entry) => entry.action === 'console.sign-in' && entry.outcome === 'succeeded'),
      ).toMatchObject({
        actorPrincipalId: session.userId,
        wayIn: 'oidc',
        target: { kind: 'console-session' },
      });
      const sso = await test.database.repositories.ssoIdentities.findByUserId(session.userId);
      expect(sso).toMatchObject({
        subject: 'alice-sub',
        email: 'alice@example.com',
        role: 'admin',
        issuer: `${provider.issuer}/`,
      });
    });

    /** A moment after every record so far (the test clock stands still unless moved). */
    function mark(): Date {
      test.database.clock.advance(1000);
      return new Date(test.database.clock.now());
    }

    /** The refused sign-ins recorded since `since` (newest first). */
    async function refusedSignIns(since: Date) {
      const audit = await test.database.repositories.audit.list(
        { action: 'console.sign-in', outcome: 'refused', from: since },
        {},
      );
      return audit.items;
    }

    it('refuses a person in no mapped group (no default role), recorded with them as the actor', async () => {
      const since = mark();
      const { ending } = await signIn(nobody.subject);
      expect(ending).toEqual({ problem: 'no-role' });
      const [refusal] = await refusedSignIns(since);
      const sso = await test.database.repositories.ssoIdentities.findByUserId(refusal!.actorPrincipalId);
      expect(sso?.subject).toBe(nobody.subject);
      expect(refusal).toMatchObject({
        actorKind: 'user',
        wayIn: 'oidc',
        details: { problem: 'no-role', step: 'callback' },
      });
    });

    it('refuses an email outside the allowed domains', async () => {
      const { ending } = await signIn(outsider.subject);
      expect(ending).toEqual({ problem: 'email-domain-not-allowed' });
    });

    it('refuses a callback whose state is not this browser’s sign-in', async () => {
      const since = mark();
      const jar = new CookieJar();
      provider.signInAs(alice.subject);
      const started = await browse(`${apiPublicUrl}/v1/sso/start`, jar);
      // The provider's answer carried to the callback with another state (a forged or mixed-up callback).
      const forged = await follow(`${apiPublicUrl}/v1/sso/callback?code=forged&state=not-the-state`, jar);
      expect(forged.ending).toEqual({ problem: 'state-mismatch' });
      // And a callback with no sign-in started in this browser at all.
      const bare = await follow(`${apiPublicUrl}/v1/sso/callback?code=x&state=y`, new CookieJar());
      expect(bare.ending).toEqual({ problem: 'state-mismatch' });
      expect(started.location).toContain(provider.issuer);
      // Both refusals are in the audit log; nobody is named by them.
      const refusals = await refusedSignIns(since);
      expect(refusals.map((entry) => entry.details)).toEqual([
        { problem: 'state-mismatch', step: 'callback' },
        { problem: 'state-mismatch', step: 'callback' },
      ]);
      expect(new Set(refusals.map((entry) => entry.actorKind))).toEqual(new Set(['unauthenticated']));
    });

    it('refuses a replayed authorization code and a replayed one-time code', async () => {
      const jar = new CookieJar();
      provider.signInAs(victor.subject);
      // Stop at the callback, keeping a copy of the browser's cookies from before it (an attacker's copy).
      let next = `${apiPublicUrl}/v1/sso/start`;
      while (!next.startsWith(`${apiPublicUrl}/v1/sso/callback`)) next = (await browse(next, jar)).location!;
      const copied = jar.copy();
      const first = await follow(next, jar);
      expect(first.ending).toHaveProperty('code');
      const replayed = await follow(next, copied);
      expect(replayed.ending).toEqual({ problem: 'token-invalid' });

      const code = (first.ending as { code: string }).code;
      expect((await exchange(code)).statusCode).toBe(201);
      const since = mark();
      const again = await exchange(code);
      expect(again.statusCode).toBe(401);
      expect(again.body).not.toContain(code);
      expect((await refusedSignIns(since))[0]).toMatchObject({
        wayIn: 'oidc',
        details: { problem: 'code-invalid', step: 'exchange' },
      });
    });

    it('refuses an expired ID token', async () => {
      provider.expireNextIdToken();
      const { ending } = await signIn(alice.subject);
      expect(ending).toEqual({ problem: 'token-invalid' });
      expect(test.logs.text()).toContain('OAUTH_JWT_TIMESTAMP_CHECK_FAILED');
    });

    it('ends the console sessions of a person whose role went down, at their next sign-in', async () => {
      const first = await signInToSession(victor.subject);
      expect((await me(first.token)).json()).toMatchObject({ role: 'viewer' });

      provider.setAccount({ ...victor, groups: ['everyone'] });
      const { ending } = await signIn(victor.subject);
      expect(ending).toEqual({ problem: 'no-role' });
      expect((await me(first.token)).statusCode).toBe(401);
      const sessions = await test.database.repositories.consoleSessions.list(
        { userId: first.userId, includeEnded: true },
        {},
      );
      // Every session of theirs ended (an earlier test's too), each saying why.
      expect(sessions.items.find((session) => session.id === first.sessionId)?.endReason).toBe(
        'role-changed',
      );
      expect(new Set(sessions.items.map((session) => session.endReason))).toEqual(new Set(['role-changed']));

      // Back in a group: a new sign-in works, with the role the mapping gives now.
      provider.setAccount({ ...victor, groups: ['agentdesk-admins'] });
      const later = await signInToSession(victor.subject);
      expect(later.userId).toBe(first.userId);
      expect((await me(later.token)).json()).toMatchObject({ role: 'admin' });
      provider.setAccount(victor);
    });
  });

  describe(`single sign-on with the provider down (${engine})`, () => {
    it('sends the browser to a clear page, not a 500', async () => {
      const test = await startTestApi(engine, {
        AGENTDESK_SSO_ISSUER: 'http://127.0.0.1:9', // the discard port: nothing listens
        AGENTDESK_SSO_CLIENT_ID: 'agentdesk-test',
        AGENTDESK_SSO_CLIENT_SECRET: 'secret-of-a-provider-that-is-down',
        AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: 'example.com',
        AGENTDESK_SSO_ROLE_MAPPING: '{"claim":"groups","map":{"admins":"admin"}}',
        AGENTDESK_API_PUBLIC_URL: apiPublicUrl,
        AGENTDESK_CONSOLE_PUBLIC_URL: consolePublicUrl,
      });
      try {
        const response = await test.request({ method: 'GET', url: '/v1/sso/start' });
        expect(response.statusCode).toBe(302);
        expect(response.headers['location']).toBe(`${consolePublicUrl}/sign-in/sso?problem=idp-unavailable`);
        expect(test.logs.text()).not.toContain('secret-of-a-provider-that-is-down');
      } finally {
        await test.close();
      }
    });
  });
}
