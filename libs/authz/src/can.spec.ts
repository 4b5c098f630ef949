import { describe, expect, it } from 'vitest';
import { can } from './can';
import { anonymousPrincipal, portalPrincipal, userPrincipal, type Principal } from './principal';
import { roleScopes } from './role-scopes';
import { roles, type Role } from './roles';
import { scopes, type Scope } from './scopes';

// The expected matrix, written out independently of `roleScopes` so a change to the table
// must be made (and reviewed) twice.
const expected: Record<Scope, Record<Role, boolean>> = {
  'sessions:read': { user: true, portal: true, viewer: false, qa: false, admin: true },
  'sessions:write': { user: true, portal: true, viewer: false, qa: false, admin: true },
  'messages:read': { user: true, portal: true, viewer: false, qa: false, admin: true },
  'messages:write': { user: true, portal: true, viewer: false, qa: false, admin: true },
  'sessions:read-any': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'messages:read-any': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'users:read': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'api-keys:read': { user: false, portal: false, viewer: false, qa: false, admin: true },
  'api-keys:write': { user: false, portal: false, viewer: false, qa: false, admin: true },
  'audit:read': { user: false, portal: false, viewer: false, qa: false, admin: true },
  'usage:read': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'sandbox:read': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'sandbox:manage': { user: false, portal: false, viewer: false, qa: false, admin: true },
  'completions:create': { user: true, portal: true, viewer: false, qa: false, admin: true },
  'lab:run': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'lab:read': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'identity:read': { user: true, portal: true, viewer: true, qa: true, admin: true },
  'console:sign-in': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'console-sessions:read': { user: false, portal: false, viewer: false, qa: false, admin: true },
  'console-sessions:write': { user: false, portal: false, viewer: false, qa: false, admin: true },
  'prices:write': { user: false, portal: false, viewer: false, qa: false, admin: true },
  'suites:read': { user: false, portal: false, viewer: true, qa: true, admin: true },
  'suites:write': { user: false, portal: false, viewer: false, qa: true, admin: true },
  'suites:run': { user: false, portal: false, viewer: false, qa: true, admin: true },
};

// Functions over no user's data: granted by role alone, never on a user's resource.
const noUserDataScopes = new Set<Scope>([
  'completions:create',
  'lab:run',
  'lab:read',
  'identity:read',
  'console:sign-in',
  'prices:write',
  'suites:read',
  'suites:write',
  'suites:run',
]);

function principalWithRole(role: Role, id = `u-${role}`): Principal {
  return role === 'portal'
    ? portalPrincipal({ portalId: 'p1', trustClientUserId: true })
    : userPrincipal({ id, role });
}

const ownDataScopes = new Set<Scope>(['sessions:read', 'sessions:write', 'messages:read', 'messages:write']);
const cells = roles.flatMap((role) => scopes.map((scope) => [role, scope] as const));

describe('can: every role × scope', () => {
  it('the expected matrix covers every scope', () => {
    expect(Object.keys(expected).sort()).toEqual([...scopes].sort());
  });

  it.each(cells)('%s → %s (function level)', (role, scope) => {
    expect(can(principalWithRole(role), scope)).toBe(expected[scope][role]);
    expect(roleScopes[role].includes(scope)).toBe(expected[scope][role]);
  });

  it.each(cells)('%s → %s on an own resource', (role, scope) => {
    const principal = principalWithRole(role);
    const ownerUserId = role === 'portal' ? 'u-end-user' : principal.id;
    const expectation = noUserDataScopes.has(scope) ? false : expected[scope][role];
    expect(can(principal, scope, { ownerUserId, effectiveUserId: 'u-end-user' })).toBe(expectation);
  });

  it.each(cells)('%s → %s on a foreign resource', (role, scope) => {
    const principal = principalWithRole(role);
    const granted = can(principal, scope, { ownerUserId: 'u-stranger', effectiveUserId: 'u-end-user' });
    // Own-data scopes on someone else's resource: only the admin; other scopes follow the table.
    const expectation = ownDataScopes.has(scope)
      ? role === 'admin'
      : noUserDataScopes.has(scope)
        ? false
        : expected[scope][role];
    expect(granted).toBe(expectation);
  });
});

describe('can: principal-specific rules', () => {
  it('a user key is checked against its own id, whatever effective id the caller passes', () => {
    const alice = userPrincipal({ id: 'u-alice' });
    expect(can(alice, 'sessions:read', { ownerUserId: 'u-bob', effectiveUserId: 'u-bob' })).toBe(false);
    expect(can(alice, 'sessions:read', { ownerUserId: 'u-alice', effectiveUserId: 'u-bob' })).toBe(true);
  });

  it('a portal without an effective user owns nothing', () => {
    const portal = portalPrincipal({ portalId: 'p1', trustClientUserId: true });
    expect(can(portal, 'sessions:write', { ownerUserId: 'p1' })).toBe(false);
    expect(can(portal, 'sessions:write', { ownerUserId: 'p1', effectiveUserId: null })).toBe(false);
  });

  it('the anonymous principal owns everything in dev mode only', () => {
    expect(can(anonymousPrincipal, 'sessions:read', { ownerUserId: 'u-any', devMode: true })).toBe(true);
    expect(can(anonymousPrincipal, 'sessions:read', { ownerUserId: 'u-any' })).toBe(false);
    expect(can(anonymousPrincipal, 'sessions:read-any')).toBe(false);
  });

  it('dev mode does not extend to named principals', () => {
    const portal = portalPrincipal({ portalId: 'p1', trustClientUserId: true });
    expect(
      can(portal, 'sessions:read', { ownerUserId: 'u-x', effectiveUserId: 'anonymous', devMode: true }),
    ).toBe(false);
    const alice = userPrincipal({ id: 'u-alice' });
    expect(can(alice, 'sessions:read', { ownerUserId: 'u-x', devMode: true })).toBe(false);
  });

  it('a viewer cannot read through own-data scopes even on its own resources', () => {
    const viewer = userPrincipal({ id: 'u-viewer', role: 'viewer' });
    expect(can(viewer, 'sessions:read', { ownerUserId: 'u-viewer' })).toBe(false);
    expect(can(viewer, 'sessions:read-any', { ownerUserId: 'u-anyone' })).toBe(true);
  });

  it('a qa key may all a viewer may, plus writing and running suites, and nothing administrative', () => {
    const qa = userPrincipal({ id: 'u-qa', role: 'qa' });
    const viewer = userPrincipal({ id: 'u-viewer', role: 'viewer' });
    const beyondViewer = scopes.filter((scope) => can(qa, scope) && !can(viewer, scope));
    expect(beyondViewer).toEqual(['suites:write', 'suites:run']);
    expect(scopes.filter((scope) => can(viewer, scope) && !can(qa, scope))).toEqual([]);
    for (const administrative of [
      'api-keys:write',
      'audit:read',
      'sandbox:manage',
      'prices:write',
      'console-sessions:write',
    ] as const)
      expect(can(qa, administrative), administrative).toBe(false);
  });
});
