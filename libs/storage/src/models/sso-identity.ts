import type { Role } from '@agentdesk/authz';

/**
 * The role single sign-on may give: a person's role (never `portal`, a machine's), or `none` — the
 * role mapping found no mapped value, and the user opens nothing until it does.
 */
export type SsoRole = Exclude<Role, 'portal'> | 'none';

/** A user as their OpenID provider described them at their last sign-in. */
export interface SsoIdentity {
  readonly userId: string;
  readonly issuer: string;
  /** The provider's stable id of the person (`sub`); emails and names may change, this does not. */
  readonly subject: string;
  readonly email: string | null;
  readonly role: SsoRole;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
