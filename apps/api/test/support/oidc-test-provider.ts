import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** A person the test provider knows. */
export interface TestAccount {
  readonly subject: string;
  readonly email: string;
  readonly name: string;
  readonly groups: readonly string[];
}

/** A real OpenID provider (`oidc-provider`) on a loopback port, for the single sign-on tests. */
export interface OidcTestProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who signs in at the next login interaction (the test's "person at the keyboard"). */
  signInAs(subject: string): void;
  /** Edits an account (e.g. removes them from a group) for the next sign-in. */
  setAccount(account: TestAccount): void;
  /** Makes the next token answer carry an ID token that expired two minutes ago (re-signed with the provider's key). */
  expireNextIdToken(): void;
  close(): Promise<void>;
}

/**
 * Starts the provider with its own signing key and a login interaction that signs in whoever
 * `signInAs` names and grants the scopes asked for (no consent screen): the tests drive it with
 * plain HTTP and a cookie jar, as a browser would.
 */
export async function startOidcTestProvider(options: {
  readonly redirectUri: string;
  readonly accounts: readonly TestAccount[];
}): Promise<OidcTestProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map(options.accounts.map((account) => [account.subject, account]));
  let nextSubject = options.accounts[0]?.subject ?? '';
  let expireNext = false;
  const clientId = 'agentdesk-test';
  const clientSecret = 'test-client-secret-that-is-long-enough-0123456789';

  // The issuer needs the port, which is known only once listening: listen first, then attach the provider.
  const { createServer } = await import('node:http');
  const attached: { handler?: (request: IncomingMessage, response: ServerResponse) => void } = {};
  const server: Server = createServer((request, response) => attached.handler?.(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    pkce: { required: () => true },
    // Explicit lifetimes (the provider nags about its defaults otherwise).
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: (_context: unknown, subject: string) => {
      const account = accounts.get(subject);
      if (account === undefined) return undefined;
      return {
        accountId: subject,
        claims: () => ({
          sub: subject,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: [...account.groups],
        }),
      };
    },
  });

  provider.use(async (context, next) => {
    if (context.path.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(context.req, context.res);
      const grant = new provider.Grant({
        accountId: nextSubject,
        clientId: String(details.params['client_id']),
      });
      grant.addOIDCScope(String(details.params['scope']));
      const grantId = await grant.save();
      const location = await provider.interactionResult(context.req, context.res, {
        login: { accountId: nextSubject },
        consent: { grantId },
      });
      context.redirect(location);
      return;
    }
    await next();
    if (expireNext && context.path === '/token' && context.status === 200) {
      expireNext = false;
      const body = context.body as { id_token?: string };
      if (body.id_token !== undefined) {
        const claims = decodeJwt(body.id_token);
        const now = Math.floor(Date.now() / 1000);
        body.id_token = await new SignJWT({ ...claims, iat: now - 3720, exp: now - 120 })
          .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
          .sign(privateKey);
      }
    }
  });
  attached.handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(subject) {
      nextSubject = subject;
    },
    setAccount(account) {
      accounts.set(account.subject, account);
    },
    expireNextIdToken() {
      expireNext = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
