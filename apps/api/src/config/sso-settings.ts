import { z } from 'zod';
import { flagVariable } from './environment-values';
import { Secret } from './secret';
import { parseRoleMapping, type RoleMapping } from './sso-role-mapping';

/**
 * OpenID Connect single sign-on (see `sso/`). Off unless `AGENTDESK_SSO_ISSUER` is set; then every
 * other SSO variable the sign-in needs must be valid too, checked at start with the rest.
 */
export interface SsoSettings {
  /** The provider's issuer URL; its discovery document is read from `/.well-known/openid-configuration`. */
  readonly issuer: URL;
  readonly clientId: string;
  /** Never logged (a `Secret`); also keys the encryption of the sign-in flow cookie. */
  readonly clientSecret: Secret;
  /** Shown on the console's button: "Sign in with <providerName>". */
  readonly providerName: string;
  readonly scopes: readonly string[];
  /** Lowercase domains a person's verified email must be at (`example.com`). */
  readonly allowedEmailDomains: readonly string[];
  readonly roleMapping: RoleMapping;
  /** The API's origin as browsers reach it: the callback is `<apiPublicUrl>/v1/sso/callback`. */
  readonly apiPublicUrl: URL;
  /** The console's origin: where a sign-in ends (`/sign-in/sso` with a code or a problem code). */
  readonly consolePublicUrl: URL;
  /** Key sign-in stays open beside SSO (otherwise the console offers SSO only, and the API refuses key sign-ins). */
  readonly allowKeySignIn: boolean;
}

/** The environment variables of single sign-on, with their meaning (the README's table lists them). */
export const ssoEnvironment = {
  AGENTDESK_SSO_ISSUER: 'OpenID Connect issuer URL (turns single sign-on on)',
  AGENTDESK_SSO_CLIENT_ID: 'client id registered at the OpenID provider',
  AGENTDESK_SSO_CLIENT_SECRET: 'client secret registered at the OpenID provider (never logged)',
  AGENTDESK_SSO_PROVIDER_NAME: 'name on the console’s “Sign in with …” button',
  AGENTDESK_SSO_SCOPES: 'space-separated scopes requested (must include openid)',
  AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: 'comma-separated email domains allowed to sign in',
  AGENTDESK_SSO_ROLE_MAPPING:
    'JSON {"claim":"groups","map":{"<value>":"admin|viewer|qa|user|none"}}: claim values to roles',
  AGENTDESK_API_PUBLIC_URL: 'the API’s origin as browsers reach it (the SSO callback is under it)',
  AGENTDESK_CONSOLE_PUBLIC_URL: 'the console’s origin, where an SSO sign-in returns',
  AGENTDESK_SSO_ALLOW_KEY_SIGN_IN: 'true to keep API-key sign-in to the console beside SSO',
} as const;

type SsoVariable = keyof typeof ssoEnvironment;

const webOrigin = z
  .string()
  .trim()
  .refine(isHttpUrl, { error: 'must be an http(s):// URL' })
  .transform((value) => new URL(value));

const environmentSchema = z.object({
  AGENTDESK_SSO_ISSUER: webOrigin,
  AGENTDESK_SSO_CLIENT_ID: z.string().trim().min(1, { error: 'must not be empty' }),
  AGENTDESK_SSO_CLIENT_SECRET: z
    .string()
    .min(1, { error: 'must not be empty' })
    .transform((value) => new Secret(value)),
  AGENTDESK_SSO_PROVIDER_NAME: z.string().trim().min(1).max(60).optional(),
  AGENTDESK_SSO_SCOPES: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ?? 'openid email profile').split(/\s+/).filter(Boolean))
    .refine((scopes) => scopes.includes('openid'), { error: 'must include openid' }),
  AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((domain) => domain.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((domains) => domains.length > 0, { error: 'must name at least one domain' })
    .refine((domains) => domains.every((domain) => /^[a-z0-9.-]+\.[a-z0-9-]+$/.test(domain)), {
      error: 'must be domains such as example.com, separated by commas',
    }),
  AGENTDESK_SSO_ROLE_MAPPING: z.string().transform((value, context) => {
    const mapping = parseRoleMapping(value);
    if (typeof mapping === 'string') {
      context.addIssue({ code: 'custom', message: mapping });
      return z.NEVER;
    }
    return mapping;
  }),
  AGENTDESK_API_PUBLIC_URL: webOrigin,
  AGENTDESK_CONSOLE_PUBLIC_URL: webOrigin,
  AGENTDESK_SSO_ALLOW_KEY_SIGN_IN: flagVariable,
});

/**
 * Reads the SSO variables: none set is "off"; any set without the issuer, or an invalid one, is a
 * problem naming the variable, never its value (the secret among them).
 */
export function readSsoSettings(environment: Readonly<Record<string, string | undefined>>): {
  settings: SsoSettings | undefined;
  problems: string[];
} {
  const input = Object.fromEntries(
    Object.keys(ssoEnvironment).map((name) => [name, blankToUndefined(environment[name])]),
  );
  if (input['AGENTDESK_SSO_ISSUER'] === undefined) {
    const stray = Object.entries(input)
      .filter(([name, value]) => value !== undefined && name.startsWith('AGENTDESK_SSO_'))
      .map(
        ([name]) => `${name} (${ssoEnvironment[name as SsoVariable]}): set, but AGENTDESK_SSO_ISSUER is not`,
      );
    return { settings: undefined, problems: stray };
  }
  const parsed = environmentSchema.safeParse(input);
  if (!parsed.success) {
    return {
      settings: undefined,
      problems: parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]) as SsoVariable;
        const message =
          issue.code === 'invalid_type' ? 'must be set when single sign-on is on' : issue.message;
        return `${name} (${ssoEnvironment[name]}): ${message}`;
      }),
    };
  }
  const values = parsed.data;
  const problems = insecureOrigins(values);
  if (problems.length > 0) return { settings: undefined, problems };
  return {
    problems: [],
    settings: {
      issuer: values.AGENTDESK_SSO_ISSUER,
      clientId: values.AGENTDESK_SSO_CLIENT_ID,
      clientSecret: values.AGENTDESK_SSO_CLIENT_SECRET,
      providerName: values.AGENTDESK_SSO_PROVIDER_NAME ?? 'single sign-on',
      scopes: values.AGENTDESK_SSO_SCOPES,
      allowedEmailDomains: values.AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS,
      roleMapping: values.AGENTDESK_SSO_ROLE_MAPPING,
      apiPublicUrl: values.AGENTDESK_API_PUBLIC_URL,
      consolePublicUrl: values.AGENTDESK_CONSOLE_PUBLIC_URL,
      allowKeySignIn: values.AGENTDESK_SSO_ALLOW_KEY_SIGN_IN ?? false,
    },
  };
}

/** Plain http only on loopback (tests, the demo): elsewhere codes and tokens would cross the network in clear. */
function insecureOrigins(values: {
  readonly AGENTDESK_SSO_ISSUER: URL;
  readonly AGENTDESK_API_PUBLIC_URL: URL;
  readonly AGENTDESK_CONSOLE_PUBLIC_URL: URL;
}): string[] {
  return (['AGENTDESK_SSO_ISSUER', 'AGENTDESK_API_PUBLIC_URL', 'AGENTDESK_CONSOLE_PUBLIC_URL'] as const)
    .filter((name) => values[name].protocol === 'http:' && !isLoopbackUrl(values[name]))
    .map(
      (name) => `${name} (${ssoEnvironment[name]}): must be https:// (plain http only on a loopback address)`,
    );
}

/** True for a URL on this machine only (127.x, ::1, localhost). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
    );
  } catch {
    return false;
  }
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
