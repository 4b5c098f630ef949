import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './app-config';
import { roleFromClaims, parseRoleMapping, type RoleMapping } from './sso-role-mapping';

const complete = {
  AGENTDESK_SSO_ISSUER: 'https://idp.example.com/realms/company',
  AGENTDESK_SSO_CLIENT_ID: 'agentdesk',
  AGENTDESK_SSO_CLIENT_SECRET: 'a-very-secret-value',
  AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: 'Example.com, example.org',
  AGENTDESK_SSO_ROLE_MAPPING: '{"claim":"groups","map":{"admins":"admin","qa-team":"qa","readers":"viewer"}}',
  AGENTDESK_API_PUBLIC_URL: 'https://api.example.com',
  AGENTDESK_CONSOLE_PUBLIC_URL: 'https://console.example.com',
};

function problemsOf(environment: Record<string, string>): readonly string[] {
  try {
    loadConfig(environment);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('single sign-on settings', () => {
  it('is off without an issuer, and reads every field with one', () => {
    expect(loadConfig({}).sso).toBeUndefined();
    const sso = loadConfig(complete).sso!;
    expect(sso.allowedEmailDomains).toEqual(['example.com', 'example.org']);
    expect(sso.scopes).toEqual(['openid', 'email', 'profile']);
    expect(sso.roleMapping.map).toEqual({ admins: 'admin', 'qa-team': 'qa', readers: 'viewer' });
    expect(sso.allowKeySignIn).toBe(false);
  });

  it('names each missing or invalid variable, never the secret', () => {
    const problems = problemsOf({
      ...complete,
      AGENTDESK_SSO_CLIENT_SECRET: 'a-very-secret-value',
      AGENTDESK_SSO_ROLE_MAPPING: '{"claim":"groups","map":{"admins":"superuser"}}',
      AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS: '',
      AGENTDESK_SSO_SCOPES: 'email profile',
    });
    expect(problems.join('\n')).toContain('AGENTDESK_SSO_ROLE_MAPPING');
    expect(problems.join('\n')).toContain('AGENTDESK_SSO_ALLOWED_EMAIL_DOMAINS');
    expect(problems.join('\n')).toContain('AGENTDESK_SSO_SCOPES');
    expect(problems.join('\n')).not.toContain('a-very-secret-value');
    expect(problemsOf({ AGENTDESK_SSO_CLIENT_ID: 'x' })).toEqual([
      expect.stringContaining('AGENTDESK_SSO_CLIENT_ID'),
    ]);
  });

  it('refuses plain http off loopback', () => {
    expect(problemsOf({ ...complete, AGENTDESK_SSO_ISSUER: 'http://idp.example.com' }).join('\n')).toContain(
      'must be https://',
    );
    expect(loadConfig({ ...complete, AGENTDESK_SSO_ISSUER: 'http://127.0.0.1:9000' }).sso).toBeDefined();
  });
});

describe('the role mapping', () => {
  const mapping = parseRoleMapping(complete.AGENTDESK_SSO_ROLE_MAPPING) as RoleMapping;

  it('gives the highest mapped role, and none without a mapped value (no default)', () => {
    expect(roleFromClaims(mapping, { groups: ['readers', 'admins'] })).toBe('admin');
    expect(roleFromClaims(mapping, { groups: 'qa-team' })).toBe('qa');
    // qa ranks above viewer: it holds every viewer scope and more.
    expect(roleFromClaims(mapping, { groups: ['qa-team', 'readers'] })).toBe('qa');
    expect(roleFromClaims(mapping, { groups: ['everyone'] })).toBe('none');
    expect(roleFromClaims(mapping, {})).toBe('none');
    // Inherited names are not mapped values.
    expect(roleFromClaims(mapping, { groups: ['constructor', '__proto__'] })).toBe('none');
  });

  it('refuses what is not a mapping', () => {
    expect(parseRoleMapping('not json')).toEqual(expect.any(String));
    expect(parseRoleMapping('{"claim":"groups","map":{}}')).toEqual(expect.any(String));
    expect(parseRoleMapping('{"claim":"groups","map":{"a":"admin"},"extra":1}')).toEqual(expect.any(String));
  });
});
