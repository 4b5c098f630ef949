/**
 * `npm start -- --demo-sso`: a local OpenID provider (the same `oidc-provider` the tests sign in
 * through) with three people, and the API configured for it — to try single sign-on without a
 * company IdP. Never started without the flag. Key sign-in stays on beside it, so the admin key
 * of the first start still opens the console.
 */
import {
  startIdentityProvider,
  type IdentityAccount,
  type IdentityProvider,
} from '@agentdesk/provider-emulator';

export const DEMO_SSO_FLAG = '--demo-sso';

/** The demo's people: one per outcome of the role mapping below. */
const demoAccounts: readonly IdentityAccount[] = [
  { subject: 'demo-alice', email: 'alice@example.com', name: 'Alice Admin', groups: ['agentdesk-admins'] },
  { subject: 'demo-bob', email: 'bob@example.com', name: 'Bob Viewer', groups: ['agentdesk-viewers'] },
  {
    subject: 'demo-carol',
    email: 'carol@example.com',
    name: 'Carol (no AgentDesk group)',
    groups: ['sales'],
  },
];

/**
 * Starts the provider and returns the API's SSO environment for it (the caller merges it into
 * `process.env` before the API starts) and a banner line. Variables already set win: an operator
 * trying the demo against another port keeps their values.
 */
export async function startDemoSso(
  apiPort: number,
  consolePort: number,
): Promise<{
  readonly provider: IdentityProvider;
  readonly environment: Record<string, string>;
  readonly banner: string;
}> {
  const apiPublicUrl = `http://127.0.0.1:${apiPort}`;
  const provider = await startIdentityProvider({
    redirectUri: `${apiPublicUrl}/v1/sso/callback`,
    accounts: demoAccounts,
  });
  const environment: Record<string, string> = {
    AGENTDESK_SSO_ISSUER: provider.issuer,
    AGENTDESK_SSO_CLIENT_ID: provider.clientId,
    AGENTDESK_SSO_CLIENT_SECRET: provider.clientSecret,
    AGENTDESK_SSO_PROVIDER_NAME: 'Local demo IdP',
    AGENTDESK_SSO_SCOPES: 'openid email profile groups',
    AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: 'example.com',
    AGENTDESK_SSO_ROLE_MAPPING: JSON.stringify({
      claim: 'groups',
      map: { 'agentdesk-admins': 'admin', 'agentdesk-viewers': 'viewer' },
    }),
    AGENTDESK_SSO_ALLOW_KEY_SIGN_IN: 'true',
    AGENTDESK_API_PUBLIC_URL: apiPublicUrl,
    AGENTDESK_CONSOLE_PUBLIC_URL: `http://127.0.0.1:${consolePort}`,
  };
  const banner = [
    `DEMO SSO: a local OpenID provider at ${provider.issuer} (not a real identity provider; no passwords).`,
    `On the console's sign-in page, "Sign in with Local demo IdP" offers: ${demoAccounts
      .map((account) => `${account.name} <${account.email}>`)
      .join(', ')}.`,
    `Groups map to roles: agentdesk-admins → admin, agentdesk-viewers → viewer, anything else → refused.`,
  ].join('\n');
  return { provider, environment, banner };
}
