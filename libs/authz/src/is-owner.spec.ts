import { describe, expect, it } from 'vitest';
import { isOwner } from './is-owner';
import { can } from './can';
import { ANONYMOUS_USER_ID, portalPrincipal } from './principal';

// The seed's ownership cases, one by one: admin → true; owner → true; anonymous only in dev
// mode; a trusted client alone → false.
describe('isOwner (seed semantics)', () => {
  it('grants the owner', () => {
    expect(isOwner('alice', 'alice')).toBe(true);
  });

  it('refuses another user', () => {
    expect(isOwner('alice', 'bob')).toBe(false);
  });

  it('refuses everyone when the resource has no known owner', () => {
    expect(isOwner(null, 'alice')).toBe(false);
    expect(isOwner(undefined, 'alice')).toBe(false);
    expect(isOwner(null, null)).toBe(false);
    expect(isOwner(undefined, undefined)).toBe(false);
  });

  it('grants an admin on any resource, including one without owner', () => {
    expect(isOwner('alice', 'bob', { isAdmin: true })).toBe(true);
    expect(isOwner(null, 'bob', { isAdmin: true })).toBe(true);
    expect(isOwner('alice', null, { isAdmin: true })).toBe(true);
  });

  it('does not treat a non-admin as admin', () => {
    expect(isOwner('alice', 'bob', { isAdmin: false })).toBe(false);
  });

  it('grants the anonymous principal in dev mode', () => {
    expect(isOwner('alice', ANONYMOUS_USER_ID, { devMode: true })).toBe(true);
    expect(isOwner(null, ANONYMOUS_USER_ID, { devMode: true })).toBe(true);
  });

  it('refuses the anonymous principal outside dev mode', () => {
    expect(isOwner('alice', ANONYMOUS_USER_ID)).toBe(false);
    expect(isOwner('alice', ANONYMOUS_USER_ID, { devMode: false })).toBe(false);
  });

  it('dev mode does not help a named non-owner', () => {
    expect(isOwner('alice', 'bob', { devMode: true })).toBe(false);
  });

  it('a trusted client alone does not grant access (the removed short-circuit)', () => {
    // The principal passed is the effective user; a trusted portal acting for bob is bob.
    expect(isOwner('alice', 'bob')).toBe(false);
    // Through can(): a trusted portal acting for bob, or for nobody, cannot read alice's session.
    const trustedPortal = portalPrincipal({ portalId: 'portal-1', trustClientUserId: true });
    expect(can(trustedPortal, 'sessions:read', { ownerUserId: 'alice', effectiveUserId: 'bob' })).toBe(false);
    expect(can(trustedPortal, 'sessions:read', { ownerUserId: 'alice', effectiveUserId: null })).toBe(false);
    expect(can(trustedPortal, 'sessions:read', { ownerUserId: 'alice' })).toBe(false);
  });

  it('a trusted portal acting for the owner is the owner', () => {
    const trustedPortal = portalPrincipal({ portalId: 'portal-1', trustClientUserId: true });
    expect(can(trustedPortal, 'sessions:read', { ownerUserId: 'alice', effectiveUserId: 'alice' })).toBe(
      true,
    );
  });

  it('ignores truthy non-boolean flags from untyped callers', () => {
    const options = JSON.parse('{"isAdmin":"yes","devMode":1}') as { isAdmin: boolean; devMode: boolean };
    expect(isOwner('alice', 'bob', options)).toBe(false);
    expect(isOwner('alice', ANONYMOUS_USER_ID, options)).toBe(false);
  });
});
