import type { Role } from './roles';

/**
 * The id the anonymous principal uses as its effective user. Generated user ids never take
 * this value, so it cannot collide with a stored user.
 */
export const ANONYMOUS_USER_ID = 'anonymous';

/** A key held by one user (including viewers and admins): it always acts as that user. */
export interface UserPrincipal {
  readonly kind: 'user';
  /** The user's stored id (`users.id`). */
  readonly id: string;
  readonly role: Exclude<Role, 'portal'>;
  /** The portal this user belongs to, when the user was created for a portal's end user. */
  readonly portalId: string | null;
  /** Only portal keys may name an end user; a user key never can. */
  readonly trustClientUserId: false;
  /** The API key that authenticated the request; null for other credentials. */
  readonly apiKeyId: string | null;
}

/** A portal's shared key: it calls on behalf of many end users. */
export interface PortalPrincipal {
  readonly kind: 'portal';
  /** The portal's id (the same value as `portalId`). */
  readonly id: string;
  readonly role: 'portal';
  readonly portalId: string;
  /**
   * When true the portal may name the end user it acts for. This only *resolves* the effective
   * user (`resolveEffectiveUserId`); it never grants access to anyone's resources by itself.
   */
  readonly trustClientUserId: boolean;
  readonly apiKeyId: string | null;
}

/** The single local user of dev mode; it exists only when dev mode is explicitly configured. */
export interface AnonymousPrincipal {
  readonly kind: 'anonymous';
  readonly id: typeof ANONYMOUS_USER_ID;
  readonly role: 'user';
  readonly portalId: null;
  readonly trustClientUserId: false;
  readonly apiKeyId: null;
}

/** Who is calling, as established by authentication. */
export type Principal = UserPrincipal | PortalPrincipal | AnonymousPrincipal;

/** Builds a user principal (`role` defaults to `user`). */
export function userPrincipal(fields: {
  id: string;
  role?: UserPrincipal['role'];
  portalId?: string | null;
  apiKeyId?: string | null;
}): UserPrincipal {
  return {
    kind: 'user',
    id: fields.id,
    role: fields.role ?? 'user',
    portalId: fields.portalId ?? null,
    trustClientUserId: false,
    apiKeyId: fields.apiKeyId ?? null,
  };
}

/** Builds a portal principal (`trustClientUserId` defaults to false). */
export function portalPrincipal(fields: {
  portalId: string;
  trustClientUserId?: boolean;
  apiKeyId?: string | null;
}): PortalPrincipal {
  return {
    kind: 'portal',
    id: fields.portalId,
    role: 'portal',
    portalId: fields.portalId,
    trustClientUserId: fields.trustClientUserId ?? false,
    apiKeyId: fields.apiKeyId ?? null,
  };
}

/** The dev-mode anonymous principal. */
export const anonymousPrincipal: AnonymousPrincipal = Object.freeze({
  kind: 'anonymous',
  id: ANONYMOUS_USER_ID,
  role: 'user',
  portalId: null,
  trustClientUserId: false,
  apiKeyId: null,
});
