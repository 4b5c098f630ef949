import { ANONYMOUS_USER_ID } from './principal';

/** Context for `isOwner`; both flags default to false, so a forgotten option denies. */
export interface OwnershipOptions {
  /** The caller holds the admin role: the only way to reach other users' resources. */
  readonly isAdmin?: boolean;
  /** Dev mode is explicitly configured: the anonymous principal owns everything (single-user compat). */
  readonly devMode?: boolean;
}

/**
 * Whether the effective user may treat the resource as its own.
 *
 * True for an admin, for the owner, and for the anonymous principal in dev mode only. There is
 * deliberately no "trusted portal" branch: a trusted portal only resolves the effective user,
 * and that user must then own the resource like anyone else.
 *
 * @param resourceUserId the resource's owner (`null` when it has no known owner)
 * @param effectiveUserId the request's *effective* user, never a portal's own id
 */
export function isOwner(
  resourceUserId: string | null | undefined,
  effectiveUserId: string | null | undefined,
  options: OwnershipOptions = {},
): boolean {
  // `=== true` so a truthy non-boolean from an untyped caller cannot grant access.
  if (options.isAdmin === true) return true;
  if (resourceUserId !== null && resourceUserId !== undefined && resourceUserId === effectiveUserId)
    return true;
  if (options.devMode === true && effectiveUserId === ANONYMOUS_USER_ID) return true;
  return false;
}
