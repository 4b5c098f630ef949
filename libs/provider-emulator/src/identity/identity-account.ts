/** A person the identity provider knows. */
export interface IdentityAccount {
  readonly subject: string;
  readonly email: string;
  readonly name: string;
  readonly groups: readonly string[];
}

/**
 * The people SSO tests sign in as, one per outcome of the role mapping the tests configure
 * (`agentdesk-admins` → admin, `agentdesk-viewers` → viewer, anything else → refused) and one from a
 * domain the tests do not allow. Shared so the API's and the console's SSO tests mean the same people.
 */
export const testIdentityAccounts = {
  admin: {
    subject: 'alice-sub',
    email: 'alice@example.com',
    name: 'Alice Admin',
    groups: ['agentdesk-admins', 'everyone'],
  },
  viewer: {
    subject: 'victor-sub',
    email: 'victor@example.com',
    name: 'Victor Viewer',
    groups: ['agentdesk-viewers'],
  },
  noGroup: {
    subject: 'nora-sub',
    email: 'nora@example.com',
    name: 'Nora NoGroup',
    groups: ['everyone'],
  },
  outsider: {
    subject: 'outsider-sub',
    email: 'mallory@elsewhere.test',
    name: 'Mallory',
    groups: ['agentdesk-admins'],
  },
} as const satisfies Record<string, IdentityAccount>;
