import type { Selectable } from 'kysely';
import type { SsoIdentitiesTable } from '../database-schema';
import { newId } from '../ids';
import type { SsoIdentity, SsoRole } from '../models/sso-identity';
import { isUniqueViolation } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** What the provider said about a person at a sign-in. */
export interface SsoSignInProfile {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly role: SsoRole;
}

/** The provisioned (or refreshed) user, and the role they held before this sign-in. */
export interface ProvisionedSsoUser {
  readonly identity: SsoIdentity;
  /** Undefined on the first sign-in. */
  readonly previousRole: SsoRole | undefined;
}

/**
 * People who sign in through single sign-on, and the one-time codes that hand a finished sign-in
 * to the console. Users are found by (issuer, subject), created on first sign-in, and their name,
 * email and role refreshed at every sign-in.
 */
export class SsoIdentitiesRepository {
  constructor(private readonly context: RepositoryContext) {}

  /**
   * Creates or refreshes the user of a sign-in. Two first sign-ins of one person at once converge
   * on one user: the loser of the unique (issuer, subject) insert refreshes the winner's row.
   */
  async provision(profile: SsoSignInProfile): Promise<ProvisionedSsoUser> {
    const existing = await this.find(profile.issuer, profile.subject);
    if (existing !== undefined) return this.refresh(existing, profile);
    const now = this.context.clock();
    try {
      return await this.context.db.transaction().execute(async (transaction) => {
        const userId = newId(now);
        await transaction
          .insertInto('users')
          .values({
            id: userId,
            portal_id: null,
            // Unique among local users, and never a value another way in produces.
            external_id: `sso:${userId}`,
            display_name: profile.name,
            created_at: now,
          })
          .execute();
        const row = await transaction
          .insertInto('sso_identities')
          .values({
            user_id: userId,
            issuer: profile.issuer,
            subject: profile.subject,
            email: profile.email,
            role: profile.role,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { identity: toSsoIdentity(row), previousRole: undefined };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.find(profile.issuer, profile.subject);
      if (winner === undefined) throw error;
      return this.refresh(winner, profile);
    }
  }

  /** The role single sign-on last gave this user; undefined for a user who never signed in that way. */
  async roleOfUser(userId: string): Promise<SsoRole | undefined> {
    const row = await this.context.db
      .selectFrom('sso_identities')
      .select('role')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  }

  /** The identity of a user, if they signed in through single sign-on. */
  async findByUserId(userId: string): Promise<SsoIdentity | undefined> {
    const row = await this.context.db
      .selectFrom('sso_identities')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row === undefined ? undefined : toSsoIdentity(row);
  }

  /** Stores a one-time code (its hash) for a user, valid for `ttlMs`. */
  async createSignInCode(codeHash: string, userId: string, ttlMs: number): Promise<void> {
    const now = this.context.clock();
    await this.context.db
      .insertInto('sso_sign_in_codes')
      .values({
        code_hash: codeHash,
        user_id: userId,
        created_at: now,
        expires_at: now + ttlMs,
        used_at: null,
      })
      .execute();
  }

  /**
   * Uses a code: the user it was issued to, or undefined when it is unknown, expired or already
   * used. One conditional update, so two replays racing each other cannot both win.
   */
  async redeemSignInCode(codeHash: string): Promise<string | undefined> {
    const now = this.context.clock();
    const row = await this.context.db
      .updateTable('sso_sign_in_codes')
      .set({ used_at: now })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  private async find(issuer: string, subject: string): Promise<Selectable<SsoIdentitiesTable> | undefined> {
    return this.context.db
      .selectFrom('sso_identities')
      .selectAll()
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  private async refresh(
    existing: Selectable<SsoIdentitiesTable>,
    profile: SsoSignInProfile,
  ): Promise<ProvisionedSsoUser> {
    const now = this.context.clock();
    return this.context.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('users')
        .set({ display_name: profile.name })
        .where('id', '=', existing.user_id)
        .execute();
      const row = await transaction
        .updateTable('sso_identities')
        .set({ email: profile.email, role: profile.role, updated_at: now })
        .where('user_id', '=', existing.user_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { identity: toSsoIdentity(row), previousRole: existing.role };
    });
  }
}

function toSsoIdentity(row: Selectable<SsoIdentitiesTable>): SsoIdentity {
  return {
    userId: row.user_id,
    issuer: row.issuer,
    subject: row.subject,
    email: row.email,
    role: row.role,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
