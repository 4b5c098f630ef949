/**
 * Every permission, as `"resource:action"` literals. Scopes ending in `-any` (and the
 * administrative resources) reach every user's data; the others reach only the effective user's own.
 */
export const scopes = [
  'sessions:read',
  'sessions:write',
  'messages:read',
  'messages:write',
  'sessions:read-any',
  'messages:read-any',
  'users:read',
  'api-keys:read',
  'api-keys:write',
  'audit:read',
  'usage:read',
  'sandbox:read',
  'sandbox:manage',
  'completions:create',
  'lab:run',
  'lab:read',
  'identity:read',
  'console:sign-in',
  'console-sessions:read',
  'console-sessions:write',
  'prices:write',
  'suites:read',
  'suites:write',
  'suites:run',
] as const;

/** One permission, e.g. `sessions:read`. */
export type Scope = (typeof scopes)[number];

/**
 * How far a scope reaches when checked against a resource: `own` needs the effective user to
 * own it, `any` is granted on every resource once the role holds the scope, and `none` is a
 * function over no user's data (a stateless completion, the schema lab): it grants nothing on a
 * user's resource.
 */
export type ScopeReach = 'own' | 'any' | 'none';

/** The reach of each scope; a `Record` so adding a scope without deciding its reach does not compile. */
export const scopeReach: Readonly<Record<Scope, ScopeReach>> = {
  'sessions:read': 'own',
  'sessions:write': 'own',
  'messages:read': 'own',
  'messages:write': 'own',
  'sessions:read-any': 'any',
  'messages:read-any': 'any',
  'users:read': 'any',
  'api-keys:read': 'any',
  'api-keys:write': 'any',
  'audit:read': 'any',
  // Token usage per day by model, provider, portal and user: an aggregate across every user.
  'usage:read': 'any',
  // The sandbox image, its builds and every session's container: administrative, across users.
  'sandbox:read': 'any',
  'sandbox:manage': 'any',
  'completions:create': 'none',
  'lab:run': 'none',
  'lab:read': 'none',
  // `GET /v1/me` describes the calling key itself, never a user's resource.
  'identity:read': 'none',
  // Opening (and ending) one's own console session: about the caller alone, never a user's resource.
  'console:sign-in': 'none',
  // Everyone's console sessions (addresses, user agents) and ending them: administrative, across users.
  'console-sessions:read': 'any',
  'console-sessions:write': 'any',
  // Adding a model price version: the price table is no user's data (reading it is `usage:read`).
  'prices:write': 'none',
  // QA suites (definitions, versions, runs): shared test fixtures, no user's data.
  'suites:read': 'none',
  'suites:write': 'none',
  'suites:run': 'none',
};
