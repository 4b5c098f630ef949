import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { can } from './can';
import { effectiveUserKey, resolveEffectiveUserId } from './effective-user';
import { AuthzError } from './errors';
import { isOwner } from './is-owner';
import {
  ANONYMOUS_USER_ID,
  anonymousPrincipal,
  portalPrincipal,
  userPrincipal,
  type Principal,
} from './principal';
import { roleHasScope } from './role-scopes';
import { scopeReach, scopes } from './scopes';

const id = fc.string({ minLength: 1, maxLength: 12 });
const scope = fc.constantFrom(...scopes);
const userRole = fc.constantFrom('user' as const, 'viewer' as const, 'qa' as const, 'admin' as const);
const nonAdminUserRole = fc.constantFrom('user' as const, 'viewer' as const, 'qa' as const);

const portal = fc
  .record({ portalId: id, trustClientUserId: fc.boolean() })
  .map((fields) => portalPrincipal(fields));
const nonAdminPrincipal: fc.Arbitrary<Principal> = fc.oneof(
  fc.record({ id, role: nonAdminUserRole }).map((fields) => userPrincipal(fields)),
  portal,
  fc.constant(anonymousPrincipal),
);
const anyPrincipal: fc.Arbitrary<Principal> = fc.oneof(
  fc.record({ id, role: userRole }).map((fields) => userPrincipal(fields)),
  portal,
  fc.constant(anonymousPrincipal),
);

describe('authz properties', () => {
  it('no non-admin effective user owns another user’s resource (outside dev-mode anonymous)', () => {
    fc.assert(
      fc.property(id, id, fc.boolean(), (owner, effective, devMode) => {
        fc.pre(owner !== effective && !(devMode && effective === ANONYMOUS_USER_ID));
        expect(isOwner(owner, effective, { isAdmin: false, devMode })).toBe(false);
      }),
    );
  });

  it('no non-admin principal passes an own-data scope on a resource its effective user does not own', () => {
    fc.assert(
      fc.property(
        nonAdminPrincipal,
        scope,
        id,
        fc.option(id),
        (principal, checked, owner, effectiveUserId) => {
          const effective =
            principal.kind === 'user'
              ? principal.id
              : principal.kind === 'portal'
                ? effectiveUserId
                : ANONYMOUS_USER_ID;
          fc.pre(scopeReach[checked] === 'own' && owner !== effective);
          expect(can(principal, checked, { ownerUserId: owner, effectiveUserId })).toBe(false);
        },
      ),
    );
  });

  it('a portal never gains access to anyone’s resource without a resolved end user', () => {
    fc.assert(
      fc.property(portal, scope, fc.option(id), fc.boolean(), (principal, checked, owner, devMode) => {
        expect(can(principal, checked, { ownerUserId: owner, effectiveUserId: null, devMode })).toBe(false);
        expect(can(principal, checked, { ownerUserId: owner, devMode })).toBe(false);
      }),
    );
  });

  it('resolving never yields another user for a user key, and never a foreign namespace for a portal', () => {
    fc.assert(
      fc.property(
        anyPrincipal,
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        (principal, requested) => {
          let effective;
          try {
            effective = resolveEffectiveUserId(principal, requested);
          } catch (error) {
            expect(error).toBeInstanceOf(AuthzError);
            return;
          }
          switch (effective.kind) {
            case 'user':
              expect(principal.kind).toBe('user');
              expect(effective.userId).toBe(principal.id);
              break;
            case 'portal-user':
              expect(principal.kind === 'portal' && principal.trustClientUserId).toBe(true);
              expect(effective.portalId).toBe(principal.portalId);
              expect(effective.externalUserId).toBe(requested);
              break;
            case 'anonymous':
              expect(principal.kind).toBe('anonymous');
              break;
            case 'none':
              expect(principal.kind).toBe('portal');
              expect(requested).toBeUndefined();
              break;
          }
        },
      ),
    );
  });

  it('end users of different portals never share an effective user key', () => {
    fc.assert(
      fc.property(id, id, id, id, (portalA, userA, portalB, userB) => {
        fc.pre(portalA !== portalB || userA !== userB);
        const keyA = effectiveUserKey({ kind: 'portal-user', portalId: portalA, externalUserId: userA });
        const keyB = effectiveUserKey({ kind: 'portal-user', portalId: portalB, externalUserId: userB });
        expect(keyA).not.toBe(keyB);
      }),
    );
  });

  it('without a resource, can() is exactly the role table', () => {
    fc.assert(
      fc.property(anyPrincipal, scope, (principal, checked) => {
        expect(can(principal, checked)).toBe(roleHasScope(principal.role, checked));
      }),
    );
  });

  it('a resource never widens what the role table allows', () => {
    fc.assert(
      fc.property(
        anyPrincipal,
        scope,
        fc.option(id),
        fc.option(id),
        fc.boolean(),
        (principal, checked, owner, effectiveUserId, devMode) => {
          if (can(principal, checked, { ownerUserId: owner, effectiveUserId, devMode })) {
            expect(roleHasScope(principal.role, checked)).toBe(true);
          }
        },
      ),
    );
  });
});
