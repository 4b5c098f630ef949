import { sql } from 'kysely';
import { newId } from '../ids';
import { toUser, type User } from '../models/user';
import { containsPattern, type Page, type PageRequest } from '../pagination';
import { isUniqueViolation, notFound, StorageError, StorageErrorCode } from '../storage-error';
import { newestFirstPage } from '../newest-first-page';
import type { RepositoryContext } from './repository-context';

/** A user to create. `portalId` null: a user of AgentDesk itself (admin, QA). */
export interface NewUser {
  readonly portalId?: string | null;
  readonly externalId: string;
  readonly displayName?: string | null;
}

/** Filters of the admin user list. */
export interface UserListFilter {
  readonly portalId?: string;
  /** Case-insensitive substring of the external id or display name. */
  readonly search?: string;
  /** Only these users (a lookup by id, e.g. to name the users of a usage report). */
  readonly ids?: readonly string[];
}

/**
 * Users. A portal end user is identified by (portal id, external id): the same external id under
 * two portals is two users, which is how `@agentdesk/authz` namespaces portal end users.
 */
export class UsersRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Creates a user; `Conflict` when (portal, external id) is taken. */
  async create(input: NewUser): Promise<User> {
    const now = this.context.clock();
    try {
      const row = await this.context.db
        .insertInto('users')
        .values({
          id: newId(now),
          portal_id: input.portalId ?? null,
          external_id: input.externalId,
          display_name: input.displayName ?? null,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new StorageError(
          StorageErrorCode.Conflict,
          'user',
          'A user with this external id already exists',
          { cause: error },
        );
      }
      throw error;
    }
  }

  /**
   * The user a trusted portal names, created on first sight. Concurrent first requests for the
   * same end user converge on one row (the loser of the insert race reads the winner's).
   */
  async ensurePortalUser(portalId: string, externalId: string, displayName?: string | null): Promise<User> {
    const existing = await this.findByExternalId(portalId, externalId);
    if (existing !== undefined) return this.renamed(existing, displayName);
    try {
      return await this.create({ portalId, externalId, displayName: displayName ?? null });
    } catch (error) {
      if (error instanceof StorageError && error.code === StorageErrorCode.Conflict) {
        const winner = await this.findByExternalId(portalId, externalId);
        if (winner !== undefined) return winner;
      }
      throw error;
    }
  }

  /**
   * The user with the name its portal sends now: written only when it changed (one UPDATE on the
   * first request after a rename, none after), so a portal may send it with every request.
   */
  async renamed(user: User, displayName: string | null | undefined): Promise<User> {
    if (displayName === undefined || displayName === null || displayName === user.displayName) return user;
    const row = await this.context.db
      .updateTable('users')
      .set({ display_name: displayName })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? user : toUser(row);
  }

  /** The user with this external id under this portal (null: a non-portal user). */
  async findByExternalId(portalId: string | null, externalId: string): Promise<User | undefined> {
    const row = await this.context.db
      .selectFrom('users')
      .selectAll()
      .where('external_id', '=', externalId)
      .where((eb) => (portalId === null ? eb('portal_id', 'is', null) : eb('portal_id', '=', portalId)))
      .executeTakeFirst();
    return row === undefined ? undefined : toUser(row);
  }

  /** A user by id; `NotFound` when missing. */
  async getById(userId: string): Promise<User> {
    const row = await this.context.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('user');
    return toUser(row);
  }

  /** Every user, newest first (admin and viewer only). */
  async listForAdmin(filter: UserListFilter = {}, page: PageRequest = {}): Promise<Page<User>> {
    let query = this.context.db.selectFrom('users').selectAll();
    if (filter.portalId !== undefined) query = query.where('portal_id', '=', filter.portalId);
    if (filter.ids !== undefined) {
      if (filter.ids.length === 0) return { items: [], nextCursor: null };
      query = query.where('id', 'in', filter.ids);
    }
    if (filter.search !== undefined && filter.search.length > 0) {
      const pattern = containsPattern(filter.search);
      query = query.where(
        sql<boolean>`(lower(${sql.ref('external_id')}) like ${pattern} escape '\\' or lower(coalesce(${sql.ref('display_name')}, '')) like ${pattern} escape '\\')`,
      );
    }
    return newestFirstPage(query, page, toUser);
  }
}
