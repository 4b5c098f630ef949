import { can, userPrincipal, type Principal } from '@agentdesk/authz';
import type { IdentityJson } from '@agentdesk/api-contract';

/** The signed-in person as the console keeps it: what `GET /v1/me` said about their key. */
export interface ConsoleIdentity {
  userId: string;
  displayName: string;
  role: 'admin' | 'viewer' | 'qa';
  portalId: string | null;
  apiKeyId: string | null;
}

export type IdentityCheck =
  { ok: true; identity: ConsoleIdentity } | { ok: false; reason: 'not-a-console-role'; role: string };

/**
 * Only the console roles use the console (admins, viewers and QA engineers, whose role holds
 * `console:sign-in`): a user's or a portal's key is refused here with its role named, although the
 * API would refuse it anyway. Pages follow the scopes (a qa key sees the suites and the lab).
 */
export function consoleIdentityOf(me: IdentityJson): IdentityCheck {
  if (
    me.kind !== 'user' ||
    me.user === null ||
    (me.role !== 'admin' && me.role !== 'viewer' && me.role !== 'qa')
  )
    return { ok: false, reason: 'not-a-console-role', role: me.role };
  const identity: ConsoleIdentity = {
    userId: me.user.id,
    displayName: me.user.displayName ?? me.user.externalId,
    role: me.role,
    portalId: me.user.portalId,
    apiKeyId: me.apiKey?.id ?? null,
  };
  if (!can(principalOf(identity), 'console:sign-in'))
    return { ok: false, reason: 'not-a-console-role', role: me.role };
  return { ok: true, identity };
}

/** The principal `can()` checks: the same role → scopes table the API's guard reads. */
export function principalOf(identity: ConsoleIdentity): Principal {
  return userPrincipal({
    id: identity.userId,
    role: identity.role,
    portalId: identity.portalId,
    apiKeyId: identity.apiKeyId,
  });
}
