import { isOwner } from './is-owner';
import { ANONYMOUS_USER_ID, type Principal } from './principal';
import { roleHasScope } from './role-scopes';
import { scopeReach, type Scope } from './scopes';

/** The resource a scope is checked against, and the request context ownership needs. */
export interface ResourceAccess {
  /** The resource's owner (`users.id`); null when unknown. */
  readonly ownerUserId: string | null;
  /**
   * The stored id of the end user a portal acts for (from `resolveEffectiveUserId`, then mapped
   * to `users.id`). Read only for portal principals — a user key always acts as itself and the
   * anonymous principal as `anonymous` — and `null`/absent when the portal named nobody.
   */
  readonly effectiveUserId?: string | null;
  /** Dev mode is explicitly configured (lets the anonymous principal own everything). */
  readonly devMode?: boolean;
}

/**
 * The one authorization check, used by the API guard and the console.
 *
 * Without `resource` it answers "may this role call this function at all" (the `roleScopes`
 * table). With `resource`, own-data scopes also need `isOwner` against the effective user,
 * `-any` and administrative scopes hold on every resource, and scopes over no user's data
 * (`reach: 'none'`) hold on none.
 */
export function can(principal: Principal, scope: Scope, resource?: ResourceAccess): boolean {
  if (!roleHasScope(principal.role, scope)) return false;
  const reach = scopeReach[scope];
  if (reach === 'none') return resource === undefined;
  if (resource === undefined || reach === 'any') return true;
  return isOwner(resource.ownerUserId, effectiveUserIdOf(principal, resource), {
    isAdmin: principal.role === 'admin',
    devMode: resource.devMode === true && principal.kind === 'anonymous',
  });
}

/** Fixed by the principal for users and anonymous, so a caller cannot pass someone else's id. */
function effectiveUserIdOf(principal: Principal, resource: ResourceAccess): string | null {
  switch (principal.kind) {
    case 'user':
      return principal.id;
    case 'anonymous':
      return ANONYMOUS_USER_ID;
    case 'portal':
      return resource.effectiveUserId ?? null;
  }
}
