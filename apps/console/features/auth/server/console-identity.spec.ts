import type { IdentityJson } from '@agentdesk/api-contract';
import { can } from '@agentdesk/authz';
import { describe, expect, it } from 'vitest';
import { consoleIdentityOf, principalOf } from './console-identity';

function me(fields: Partial<IdentityJson>): IdentityJson {
  return {
    kind: 'user',
    role: 'admin',
    scopes: [],
    user: { id: 'u-1', externalId: 'ada', displayName: null, portalId: null },
    portal: null,
    apiKey: { id: 'k-1', prefix: 'adk_1234', label: 'ops', createdAt: '2026-01-01T00:00:00Z' },
    ...fields,
  };
}

describe('who may sign in to the console', () => {
  it.each(['admin', 'viewer', 'qa'] as const)('a %s, named by display name or else external id', (role) => {
    const checked = consoleIdentityOf(me({ role }));
    expect(checked).toEqual({
      ok: true,
      identity: { userId: 'u-1', displayName: 'ada', role, portalId: null, apiKeyId: 'k-1' },
    });
  });

  it.each([
    ['a user', me({ role: 'user' })],
    [
      'a portal',
      me({ kind: 'portal', role: 'portal', user: null, portal: { id: 'p', trustClientUserId: true } }),
    ],
    ['the dev-mode anonymous user', me({ kind: 'anonymous', role: 'user', user: null, apiKey: null })],
    ['an admin role without a user', me({ user: null })],
  ])('not %s', (_case, identity) => {
    expect(consoleIdentityOf(identity)).toMatchObject({ ok: false, reason: 'not-a-console-role' });
  });

  it('a viewer’s principal reads every session but manages nothing (the API’s own table)', () => {
    const checked = consoleIdentityOf(me({ role: 'viewer' }));
    if (!checked.ok) throw new Error('a viewer may sign in');
    const viewer = principalOf(checked.identity);
    expect(can(viewer, 'messages:read-any')).toBe(true);
    expect(can(viewer, 'api-keys:write')).toBe(false);
    expect(can(viewer, 'sandbox:manage')).toBe(false);
  });
});
