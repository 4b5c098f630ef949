/** A person the identity provider knows. */
export interface IdentityAccount {
  readonly subject: string;
  readonly email: string;
  readonly name: string;
  readonly groups: readonly string[];
}
