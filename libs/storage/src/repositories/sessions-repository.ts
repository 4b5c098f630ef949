import { sql, type Selectable } from 'kysely';
import { defaultSessionSort, type ListSort, type SessionSortField } from '@agentdesk/api-contract';
import type { SessionsTable } from '../database-schema';
import { newId } from '../ids';
import { toJsonText, type JsonObject } from '../json';
import { toSession, type Session, type SessionStatus } from '../models/session';
import { containsPattern, type Page, type PageRequest } from '../pagination';
import { isForeignKeyViolation, notFound } from '../storage-error';
import {
  allChunks,
  EXPORT_CHUNK_SIZE,
  numberSortExpression,
  sortedPage,
  numberColumnSort,
  textColumnSort,
  type ExportChunks,
  type SortKey,
} from '../sorted-page';
import type { RepositoryContext } from './repository-context';

/** A session to create; the portal is taken from the owner's user record. */
export interface NewSession {
  readonly ownerUserId: string;
  readonly label?: string;
  readonly model?: string | null;
  readonly systemPrompt?: string | null;
  readonly metadata?: JsonObject;
}

/** Fields an owner may change; absent fields stay as they are. */
export interface SessionPatch {
  readonly label?: string;
  readonly model?: string | null;
  readonly systemPrompt?: string | null;
  readonly metadata?: JsonObject;
}

/** Filters of a user's own session list. Dates: `createdFrom` inclusive, `createdBefore` exclusive. */
export interface SessionListFilter {
  readonly status?: SessionStatus;
  readonly createdFrom?: Date;
  readonly createdBefore?: Date;
  /** Case-insensitive substring of the label (ASCII case folding on SQLite). */
  readonly labelContains?: string;
}

/** Filters of the admin cross-user list: the owner's filters plus the owner, portal and model (exact). */
export interface AdminSessionFilter extends SessionListFilter {
  readonly ownerUserId?: string;
  /** Any of these owners (a person named by name resolves to their ids); empty matches nothing. */
  readonly ownerUserIds?: readonly string[];
  /** The owner's portal (`sessions.portal_id`, copied from the owner when the session was made). */
  readonly portalId?: string;
  /** The session's model, exactly as stored. */
  readonly model?: string;
}

// Owner scope is a required discriminant, so an owner-scoped call can never drop its WHERE.
type ListScope =
  | { readonly kind: 'owner'; readonly ownerUserId: string }
  | {
      readonly kind: 'admin';
      readonly ownerUserId: string | undefined;
      readonly ownerUserIds: readonly string[] | undefined;
      readonly portalId: string | undefined;
      readonly model: string | undefined;
    };

/**
 * Sessions. Every owner method puts `owner_user_id = ?` in the statement itself, so a foreign
 * session id behaves exactly like a missing one (`NotFound`). Cross-user methods end in
 * `ForAdmin` and are meant for routes that checked an admin/viewer scope and write an audit record.
 */
export class SessionsRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Creates an open session; `NotFound` (entity `user`) when the owner does not exist. */
  async create(input: NewSession): Promise<Session> {
    const { db, clock } = this.context;
    const owner = await db
      .selectFrom('users')
      .select('portal_id')
      .where('id', '=', input.ownerUserId)
      .executeTakeFirst();
    if (owner === undefined) throw notFound('user');
    const now = clock();
    try {
      const row = await db
        .insertInto('sessions')
        .values({
          id: newId(now),
          owner_user_id: input.ownerUserId,
          portal_id: owner.portal_id,
          label: input.label ?? '',
          status: 'open',
          model: input.model ?? null,
          system_prompt: input.systemPrompt ?? null,
          metadata: toJsonText(input.metadata ?? {}),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSession(row);
    } catch (error) {
      // The owner was deleted between the two statements.
      if (isForeignKeyViolation(error)) throw notFound('user');
      throw error;
    }
  }

  /** The owner's session; `NotFound` when missing or owned by someone else. */
  async getForOwner(ownerUserId: string, sessionId: string): Promise<Session> {
    const row = await this.context.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('session');
    return toSession(row);
  }

  /** The owner's sessions, newest first. */
  listForOwner(
    ownerUserId: string,
    filter: SessionListFilter = {},
    page: PageRequest = {},
  ): Promise<Page<Session>> {
    return this.list({ kind: 'owner', ownerUserId }, filter, page);
  }

  /** Changes label, model, system prompt or metadata; `NotFound` when not the owner's. */
  async update(ownerUserId: string, sessionId: string, patch: SessionPatch): Promise<Session> {
    const row = await this.context.db
      .updateTable('sessions')
      .set({
        ...(patch.label === undefined ? {} : { label: patch.label }),
        ...(patch.model === undefined ? {} : { model: patch.model }),
        ...(patch.systemPrompt === undefined ? {} : { system_prompt: patch.systemPrompt }),
        ...(patch.metadata === undefined ? {} : { metadata: toJsonText(patch.metadata) }),
        updated_at: this.context.clock(),
      })
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) throw notFound('session');
    return toSession(row);
  }

  /** Renames the owner's session. */
  rename(ownerUserId: string, sessionId: string, label: string): Promise<Session> {
    return this.update(ownerUserId, sessionId, { label });
  }

  /** Closes the owner's session (idempotent: closing a closed session returns it unchanged). */
  async close(ownerUserId: string, sessionId: string): Promise<Session> {
    const { db, clock } = this.context;
    const row = await db
      .updateTable('sessions')
      .set({ status: 'closed', updated_at: clock() })
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .where('status', '=', 'open')
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? this.getForOwner(ownerUserId, sessionId) : toSession(row);
  }

  /** Deletes the owner's session with its messages and tool results; `NotFound` when not the owner's. */
  async delete(ownerUserId: string, sessionId: string): Promise<void> {
    const result = await this.context.db
      .deleteFrom('sessions')
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw notFound('session');
  }

  /** Any user's session, for audited admin/viewer reads. */
  async getForAdmin(sessionId: string): Promise<Session> {
    const row = await this.context.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('session');
    return toSession(row);
  }

  /** Every user's sessions, newest first unless another sort is asked, with optional filters (admin and viewer only). */
  listAllSessionsForAdmin(
    filter: AdminSessionFilter = {},
    page: PageRequest = {},
    sort: ListSort<SessionSortField> = defaultSessionSort,
  ): Promise<Page<Session>> {
    return this.list(adminScope(filter), filter, page, sort);
  }

  /** Every session the admin list with this filter and sort shows, in chunks (for exports). */
  exportAllSessionsForAdmin(
    filter: AdminSessionFilter = {},
    sort: ListSort<SessionSortField> = defaultSessionSort,
  ): ExportChunks<Session> {
    return allChunks((cursor) =>
      this.list(adminScope(filter), filter, { limit: EXPORT_CHUNK_SIZE, cursor }, sort, EXPORT_CHUNK_SIZE),
    );
  }

  private async list(
    scope: ListScope,
    filter: SessionListFilter,
    page: PageRequest,
    sort: ListSort<SessionSortField> = defaultSessionSort,
    maxPageSize?: number,
  ): Promise<Page<Session>> {
    const { status, createdFrom, createdBefore, labelContains } = filter;

    let query = this.context.db.selectFrom('sessions').selectAll();
    if (scope.ownerUserId !== undefined) query = query.where('owner_user_id', '=', scope.ownerUserId);
    if (scope.kind === 'admin') {
      if (scope.ownerUserIds !== undefined)
        query =
          scope.ownerUserIds.length === 0
            ? query.where(sql<boolean>`1 = 0`)
            : query.where('owner_user_id', 'in', scope.ownerUserIds);
      if (scope.portalId !== undefined) query = query.where('portal_id', '=', scope.portalId);
      if (scope.model !== undefined) query = query.where('model', '=', scope.model);
    }
    if (status !== undefined) query = query.where('status', '=', status);
    if (createdFrom !== undefined) query = query.where('created_at', '>=', createdFrom.getTime());
    if (createdBefore !== undefined) query = query.where('created_at', '<', createdBefore.getTime());
    if (labelContains !== undefined && labelContains.length > 0) {
      query = query.where(
        sql<boolean>`lower(${sql.ref('label')}) like ${containsPattern(labelContains)} escape '\\'`,
      );
    }
    return sortedPage(query, this.sortKey(sort.field), sort.direction, page, toSession, maxPageSize);
  }

  private sortKey(field: SessionSortField): SortKey<Selectable<SessionsTable>> {
    switch (field) {
      case 'created':
        return numberColumnSort(field, 'created_at');
      case 'updated':
        return numberColumnSort(field, 'updated_at');
      case 'messages':
        return numberColumnSort(field, 'message_count');
      case 'tokens':
        return {
          name: field,
          expression: numberSortExpression('input_tokens', 'output_tokens'),
          kind: 'number',
          nullable: false,
          valueOf: (row) => Number(row.input_tokens) + Number(row.output_tokens),
        };
      case 'label':
        return textColumnSort(this.context.dialect, field, 'label');
    }
  }
}

function adminScope(filter: AdminSessionFilter): ListScope {
  return {
    kind: 'admin',
    ownerUserId: filter.ownerUserId,
    ownerUserIds: filter.ownerUserIds,
    portalId: filter.portalId,
    model: filter.model,
  };
}
