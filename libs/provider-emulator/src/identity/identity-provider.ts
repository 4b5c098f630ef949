// oidc-provider ships no types; the declaration must reach every project that compiles this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider.d.ts" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import type { IdentityAccount } from './identity-account';
import { signInPage } from './sign-in-page';

export interface IdentityProviderOptions {
  /** The relying party's callback (AgentDesk's `<api>/v1/sso/callback`). */
  readonly redirectUri: string;
  readonly accounts: readonly IdentityAccount[];
  /** Loopback port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  readonly clientId?: string;
  readonly clientSecret?: string;
}

/** A real OpenID provider (`oidc-provider`) on a loopback port: for the single sign-on tests and the demo. */
export interface IdentityProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * Who signs in at every following login, with no page shown (a test driving the flow over plain
   * HTTP). Until it is called, the login shows a page listing the accounts to pick from, as a
   * browser user (or a Playwright test) sees it.
   */
  signInAs(subject: string): void;
  /** Edits (or adds) an account, e.g. removes a person from a group before their next sign-in. */
  setAccount(account: IdentityAccount): void;
  /** The next token answer carries an ID token that expired two minutes ago (re-signed with the provider's key). */
  expireNextIdToken(): void;
  /** Stops listening (connections refused, as an outage looks) until `resume`; the keys and accounts stay. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

const defaultClientSecret = 'identity-provider-client-secret-0123456789';

/**
 * Starts the provider with its own signing key. Its login interaction signs in the person picked
 * on its page (or the one `signInAs` names) and grants the scopes asked for, with no consent screen.
 */
export async function startIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  // Loaded on use, not with this package's index: importing oidc-provider prints its warnings (an
  // "unsupported runtime" on Node 20), and `npm start` imports the index without single sign-on.
  const { default: Provider } = await import('oidc-provider');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'identity-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map(options.accounts.map((account) => [account.subject, account]));
  let presetSubject: string | undefined;
  let expireNext = false;
  const clientId = options.clientId ?? 'agentdesk';
  const clientSecret = options.clientSecret ?? defaultClientSecret;

  // The issuer needs the port, which is known only once listening: listen first, then attach the provider.
  const attached: { handler?: (request: IncomingMessage, response: ServerResponse) => void } = {};
  const server: Server = createServer((request, response) => attached.handler?.(request, response));
  await listen(server, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

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
    cookies: { keys: ['identity-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    pkce: { required: () => true },
    // Explicit lifetimes (the provider warns about its defaults otherwise).
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
      const subject =
        presetSubject ?? (context.req.method === 'POST' ? await pickedSubject(context.req) : undefined);
      if (subject === undefined || !accounts.has(subject)) {
        context.status = 200;
        context.type = 'text/html; charset=utf-8';
        context.body = signInPage(context.path, [...accounts.values()]);
        return;
      }
      const details = await provider.interactionDetails(context.req, context.res);
      const grant = new provider.Grant({ accountId: subject, clientId: String(details.params['client_id']) });
      grant.addOIDCScope(String(details.params['scope']));
      const grantId = await grant.save();
      const location = await provider.interactionResult(context.req, context.res, {
        login: { accountId: subject },
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
          .setProtectedHeader({ alg: 'RS256', kid: 'identity-key' })
          .sign(privateKey);
      }
    }
  });
  attached.handler = provider.callback();

  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(subject) {
      presetSubject = subject;
    },
    setAccount(account) {
      accounts.set(account.subject, account);
    },
    expireNextIdToken() {
      expireNext = true;
    },
    suspend: stopListening,
    resume: () => (server.listening ? Promise.resolve() : listen(server, port)),
    close: stopListening,
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The `subject` field of the sign-in page's form (urlencoded, a few bytes). */
async function pickedSubject(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 4096) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('subject') ?? undefined;
}
