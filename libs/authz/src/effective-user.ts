import { AuthzError, AuthzErrorCode } from './errors';
import type { Principal } from './principal';

/** Longest end-user id a portal may name; longer values are refused rather than truncated. */
export const MAX_REQUESTED_USER_ID_LENGTH = 256;

/**
 * On whose behalf a request acts.
 * - `user`: a user key acts as its own user (`userId` is `users.id`).
 * - `portal-user`: a trusted portal acts for the end user it named. The identity is the *pair*
 *   (`portalId`, `externalUserId`): storage keeps one `users` row per pair (unique on
 *   `(portal_id, external_id)`), so portal P2's "alice" is a different user from P1's "alice".
 * - `anonymous`: the dev-mode principal.
 * - `none`: a portal that named nobody. It owns nothing, so every own-data check fails for it.
 */
export type EffectiveUser =
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'portal-user'; readonly portalId: string; readonly externalUserId: string }
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'none' };

/**
 * Resolves the effective user of a request from the authenticated principal and the user id the
 * caller named (a header or a body field; `undefined`/`null` when none was named).
 *
 * - A user key may name only itself (or nobody); naming anyone else throws `UserMismatch`. This
 *   holds for admins too: cross-user access goes through the audited admin routes instead.
 * - A portal key with `trustClientUserId` acts for the end user it names, in its own namespace.
 * - A portal key without it may not name anyone (`PortalNotTrusted`); naming nobody gives `none`.
 *
 * Resolving never grants access: ownership is checked afterwards against the effective user.
 */
export function resolveEffectiveUserId(
  principal: Principal,
  requestedUserId: string | null | undefined,
): EffectiveUser {
  const named = requestedUserId ?? null;
  if (named !== null) assertValidRequestedUserId(named);

  switch (principal.kind) {
    case 'user':
      if (named !== null && named !== principal.id) {
        throw new AuthzError(AuthzErrorCode.UserMismatch, 'A user key may only act as its own user');
      }
      return { kind: 'user', userId: principal.id };
    case 'anonymous':
      if (named !== null && named !== principal.id) {
        throw new AuthzError(AuthzErrorCode.UserMismatch, 'The anonymous principal may only act as itself');
      }
      return { kind: 'anonymous' };
    case 'portal':
      if (named === null) return { kind: 'none' };
      if (!principal.trustClientUserId) {
        throw new AuthzError(
          AuthzErrorCode.PortalNotTrusted,
          'This portal key is not trusted to name an end user',
        );
      }
      return { kind: 'portal-user', portalId: principal.portalId, externalUserId: named };
  }
}

/**
 * A canonical string for an effective user, for logs, rate-limit buckets and caches:
 * `user:<id>`, `portal:<portalId>:user:<externalUserId>` (both parts URI-encoded so a `:` inside
 * an id cannot forge another portal's namespace), `anonymous`; `null` for `none`.
 */
export function effectiveUserKey(effective: EffectiveUser): string | null {
  switch (effective.kind) {
    case 'user':
      return `user:${encodeURIComponent(effective.userId)}`;
    case 'portal-user':
      return `portal:${encodeURIComponent(effective.portalId)}:user:${encodeURIComponent(effective.externalUserId)}`;
    case 'anonymous':
      return 'anonymous';
    case 'none':
      return null;
  }
}

// Control characters would let a caller smuggle line breaks into logs and audit records.
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f]/;

function assertValidRequestedUserId(value: string): void {
  if (value.length === 0 || value.length > MAX_REQUESTED_USER_ID_LENGTH || controlCharacters.test(value)) {
    throw new AuthzError(
      AuthzErrorCode.InvalidRequestedUserId,
      `The requested user id must be 1 to ${MAX_REQUESTED_USER_ID_LENGTH} characters without control characters`,
    );
  }
}
