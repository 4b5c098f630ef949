export { roles, type Role } from './roles';
export { scopes, scopeReach, type Scope, type ScopeReach } from './scopes';
export { roleScopes, roleHasScope } from './role-scopes';
export {
  ANONYMOUS_USER_ID,
  anonymousPrincipal,
  portalPrincipal,
  userPrincipal,
  type AnonymousPrincipal,
  type PortalPrincipal,
  type Principal,
  type UserPrincipal,
} from './principal';
export { AuthzError, AuthzErrorCode, isAuthzError } from './errors';
export {
  MAX_REQUESTED_USER_ID_LENGTH,
  effectiveUserKey,
  resolveEffectiveUserId,
  type EffectiveUser,
} from './effective-user';
export { isOwner, type OwnershipOptions } from './is-owner';
export { can, type ResourceAccess } from './can';
