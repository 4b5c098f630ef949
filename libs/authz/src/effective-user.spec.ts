import { describe, expect, it } from 'vitest';
import {
  effectiveUserKey,
  MAX_REQUESTED_USER_ID_LENGTH,
  resolveEffectiveUserId,
  type EffectiveUser,
} from './effective-user';
import { AuthzError, AuthzErrorCode } from './errors';
import { anonymousPrincipal, portalPrincipal, userPrincipal, type Principal } from './principal';

const alice = userPrincipal({ id: 'u-alice' });
const admin = userPrincipal({ id: 'u-admin', role: 'admin' });
const viewer = userPrincipal({ id: 'u-viewer', role: 'viewer' });
const trustedP1 = portalPrincipal({ portalId: 'p1', trustClientUserId: true });
const trustedP2 = portalPrincipal({ portalId: 'p2', trustClientUserId: true });
const untrustedP1 = portalPrincipal({ portalId: 'p1' });

type Row = [
  name: string,
  principal: Principal,
  requested: string | null | undefined,
  expected: EffectiveUser | AuthzErrorCode,
];

const table: Row[] = [
  ['user, nobody named', alice, undefined, { kind: 'user', userId: 'u-alice' }],
  ['user, null named', alice, null, { kind: 'user', userId: 'u-alice' }],
  ['user naming itself', alice, 'u-alice', { kind: 'user', userId: 'u-alice' }],
  ['user naming someone else', alice, 'u-bob', AuthzErrorCode.UserMismatch],
  ['admin naming someone else (admin routes are separate)', admin, 'u-bob', AuthzErrorCode.UserMismatch],
  ['viewer naming someone else', viewer, 'u-bob', AuthzErrorCode.UserMismatch],
  ['admin, nobody named', admin, undefined, { kind: 'user', userId: 'u-admin' }],
  [
    'trusted portal naming alice',
    trustedP1,
    'alice',
    { kind: 'portal-user', portalId: 'p1', externalUserId: 'alice' },
  ],
  [
    'other trusted portal naming alice',
    trustedP2,
    'alice',
    { kind: 'portal-user', portalId: 'p2', externalUserId: 'alice' },
  ],
  ['trusted portal naming nobody', trustedP1, undefined, { kind: 'none' }],
  ['untrusted portal naming nobody', untrustedP1, undefined, { kind: 'none' }],
  ['untrusted portal naming alice', untrustedP1, 'alice', AuthzErrorCode.PortalNotTrusted],
  ['anonymous, nobody named', anonymousPrincipal, undefined, { kind: 'anonymous' }],
  ['anonymous naming itself', anonymousPrincipal, 'anonymous', { kind: 'anonymous' }],
  ['anonymous naming someone', anonymousPrincipal, 'alice', AuthzErrorCode.UserMismatch],
  ['empty id', trustedP1, '', AuthzErrorCode.InvalidRequestedUserId],
  ['control character', trustedP1, 'ali\nce', AuthzErrorCode.InvalidRequestedUserId],
  [
    'too long',
    trustedP1,
    'a'.repeat(MAX_REQUESTED_USER_ID_LENGTH + 1),
    AuthzErrorCode.InvalidRequestedUserId,
  ],
  [
    'longest allowed',
    trustedP1,
    'a'.repeat(MAX_REQUESTED_USER_ID_LENGTH),
    { kind: 'portal-user', portalId: 'p1', externalUserId: 'a'.repeat(MAX_REQUESTED_USER_ID_LENGTH) },
  ],
  ['empty id from a user key', alice, '', AuthzErrorCode.InvalidRequestedUserId],
];

describe('resolveEffectiveUserId', () => {
  it.each(table)('%s', (_name, principal, requested, expected) => {
    if (typeof expected === 'string') {
      let thrown: unknown;
      try {
        resolveEffectiveUserId(principal, requested);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AuthzError);
      expect((thrown as AuthzError).code).toBe(expected);
    } else {
      expect(resolveEffectiveUserId(principal, requested)).toEqual(expected);
    }
  });
});

describe('effectiveUserKey', () => {
  it('namespaces end users by portal', () => {
    const p1Alice = effectiveUserKey(resolveEffectiveUserId(trustedP1, 'alice'));
    const p2Alice = effectiveUserKey(resolveEffectiveUserId(trustedP2, 'alice'));
    expect(p1Alice).toBe('portal:p1:user:alice');
    expect(p2Alice).toBe('portal:p2:user:alice');
  });

  it('cannot be forged with separators inside ids', () => {
    const forged = effectiveUserKey({ kind: 'portal-user', portalId: 'p1:user:x', externalUserId: 'y' });
    const honest = effectiveUserKey({ kind: 'portal-user', portalId: 'p1', externalUserId: 'x:user:y' });
    expect(forged).not.toBe(honest);
  });

  it('gives user, anonymous and none their own forms', () => {
    expect(effectiveUserKey({ kind: 'user', userId: 'u-1' })).toBe('user:u-1');
    expect(effectiveUserKey({ kind: 'anonymous' })).toBe('anonymous');
    expect(effectiveUserKey({ kind: 'none' })).toBeNull();
  });
});
