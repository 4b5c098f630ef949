import type { Role } from './roles';
import { scopes, type Scope } from './scopes';

const ownDataScopes = [
  'sessions:read',
  'sessions:write',
  'messages:read',
  'messages:write',
] as const satisfies readonly Scope[];

/** Every role may ask who it is (`GET /v1/me`): portals and the console start there. */
const identityScopes = ['identity:read'] as const satisfies readonly Scope[];

/**
 * Read-only QA across users: reads anyone's sessions, tries schemas in the structured-output lab,
 * sees the sandbox's health, the token usage and the QA suites with their runs; changes nothing
 * (rebuilds, re-pins and container removals are the admin's; editing and running suites the `qa`
 * role's). Signs in to the console; seeing and ending other people's console sessions is the admin's.
 */
const viewerScopes = [
  'sessions:read-any',
  'messages:read-any',
  'users:read',
  'lab:run',
  'lab:read',
  'sandbox:read',
  'usage:read',
  'console:sign-in',
  'suites:read',
  ...identityScopes,
] as const satisfies readonly Scope[];

/**
 * Roles → scopes, as data: the API guard and the console read the same table.
 * A portal gets the same own-data scopes as a user because it only ever acts *as* an end user
 * (see `resolveEffectiveUserId`); the viewer is read-only across users and cannot touch keys or audit.
 */
export const roleScopes: Readonly<Record<Role, readonly Scope[]>> = Object.freeze({
  user: [...ownDataScopes, 'completions:create', ...identityScopes],
  portal: [...ownDataScopes, 'completions:create', ...identityScopes],
  viewer: viewerScopes,
  // QA engineer: everything the viewer may, plus writing and running structured-output test suites.
  // No administrative right: no keys, audit, prices, sandbox management or console sessions.
  qa: [...viewerScopes, 'suites:write', 'suites:run'],
  admin: scopes,
});

/** True when the role's row of `roleScopes` contains the scope (no resource involved). */
export function roleHasScope(role: Role, scope: Scope): boolean {
  return roleScopes[role].includes(scope);
}
