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
 * Roles → scopes, as data: the API guard and the console read the same table.
 * A portal gets the same own-data scopes as a user because it only ever acts *as* an end user
 * (see `resolveEffectiveUserId`); the viewer is read-only across users and cannot touch keys or audit.
 */
export const roleScopes: Readonly<Record<Role, readonly Scope[]>> = Object.freeze({
  user: [...ownDataScopes, 'completions:create', ...identityScopes],
  portal: [...ownDataScopes, 'completions:create', ...identityScopes],
  // QA: reads anyone's sessions, tries schemas in the structured-output lab and sees the sandbox's
  // health and the token usage; changes nothing else (rebuilds, re-pins and container removals are the admin's).
  // Signs in to the console; seeing and ending other people's console sessions is the admin's.
  // Reads QA suites and their runs, but neither edits nor runs them (that is the `qa` role's).
  viewer: [
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
  ],
  // QA engineer: writes and runs structured-output test suites and uses the lab to build cases;
  // sees token usage (what a run cost). No administrative right: no keys, audit, users, sandbox
  // management, nor anyone's sessions or console sessions.
  qa: [
    'suites:read',
    'suites:write',
    'suites:run',
    'lab:run',
    'lab:read',
    'usage:read',
    'console:sign-in',
    ...identityScopes,
  ],
  admin: scopes,
});

/** True when the role's row of `roleScopes` contains the scope (no resource involved). */
export function roleHasScope(role: Role, scope: Scope): boolean {
  return roleScopes[role].includes(scope);
}
