import type { Selectable } from 'kysely';
import { defaultAuditSort, type AuditSortField, type ListSort } from '@agentdesk/api-contract';
import type { AuditLogTable } from '../database-schema';
import { newId } from '../ids';
import { toNullableJsonText, type JsonObject } from '../json';
import {
  toAuditEntry,
  type AuditActorKind,
  type AuditEntry,
  type AuditOutcome,
  type AuditTarget,
} from '../models/audit-entry';
import type { Page, PageRequest } from '../pagination';
import {
  allChunks,
  EXPORT_CHUNK_SIZE,
  sortedPage,
  numberColumnSort,
  textColumnSort,
  type ExportChunks,
  type SortKey,
} from '../sorted-page';
import type { RepositoryContext } from './repository-context';

/** A record to append; `at` is the repository clock's now. */
export interface NewAuditEntry {
  readonly actorPrincipalId: string;
  /** Default `user`, what every record before outcomes and targets (migration 0012) was written for. */
  readonly actorKind?: AuditActorKind;
  readonly actorApiKeyId?: string | null;
  readonly wayIn?: string | null;
  readonly action: string;
  /** Default `succeeded`: a read or listing is recorded once it was served. */
  readonly outcome?: AuditOutcome;
  readonly target?: AuditTarget | null;
  readonly targetUserId?: string | null;
  readonly sessionId?: string | null;
  readonly reason?: string | null;
  readonly requestId?: string | null;
  readonly clientRequestId?: string | null;
  readonly details?: JsonObject | null;
}

/** Filters of the audit log. Dates: `from` inclusive, `before` exclusive. */
export interface AuditListFilter {
  readonly actorPrincipalId?: string;
  readonly targetUserId?: string;
  readonly sessionId?: string;
  readonly action?: string;
  readonly outcome?: AuditOutcome;
  readonly from?: Date;
  readonly before?: Date;
}

/** Which record `hasRecordSince` looks for. */
export interface AuditRecordQuery {
  readonly actorPrincipalId: string;
  readonly action: string;
  readonly sessionId: string;
  /** The reason the record gives (`null`: none); a read for another stated reason is another act. */
  readonly reason: string | null;
  /** Records at or after this moment count. */
  readonly since: Date;
}

/** The append-only audit log: there is no update or delete method on purpose. */
export class AuditRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Appends one record. */
  async append(entry: NewAuditEntry): Promise<AuditEntry> {
    const now = this.context.clock();
    const row = await this.context.db
      .insertInto('audit_log')
      .values({
        id: newId(now),
        at: now,
        actor_principal_id: entry.actorPrincipalId,
        actor_kind: entry.actorKind ?? 'user',
        actor_api_key_id: entry.actorApiKeyId ?? null,
        way_in: entry.wayIn ?? null,
        action: entry.action,
        outcome: entry.outcome ?? 'succeeded',
        target_kind: entry.target?.kind ?? null,
        target_id: entry.target?.id ?? null,
        target_user_id: entry.targetUserId ?? null,
        session_id: entry.sessionId ?? null,
        reason: entry.reason ?? null,
        request_id: entry.requestId ?? null,
        client_request_id: entry.clientRequestId ?? null,
        details: toNullableJsonText(entry.details),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAuditEntry(row);
  }

  /**
   * Whether this principal has a record of this action on this session, with this reason, at or
   * after `since`. Answered by the `(actor_principal_id, session_id, action, at)` index (the reason
   * is checked on the few rows it finds), so it stays one index probe however long the log grows;
   * it reads the shared database, so every replica sees it.
   */
  async hasRecordSince(query: AuditRecordQuery): Promise<boolean> {
    const row = await this.context.db
      .selectFrom('audit_log')
      .select('id')
      .where('actor_principal_id', '=', query.actorPrincipalId)
      .where('session_id', '=', query.sessionId)
      .where('action', '=', query.action)
      .where('at', '>=', query.since.getTime())
      .where((eb) => (query.reason === null ? eb('reason', 'is', null) : eb('reason', '=', query.reason)))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** `hasRecordSince` with `since` = the repository clock's now minus `windowMs`. */
  hasRecordWithin(query: Omit<AuditRecordQuery, 'since'>, windowMs: number): Promise<boolean> {
    return this.hasRecordSince({ ...query, since: new Date(this.context.clock() - windowMs) });
  }

  /** Records, newest first unless another sort is asked (admin only). */
  list(
    filter: AuditListFilter = {},
    page: PageRequest = {},
    sort: ListSort<AuditSortField> = defaultAuditSort,
  ): Promise<Page<AuditEntry>> {
    return this.listPage(filter, page, sort);
  }

  /** Every record the list with this filter and sort shows, in chunks (for exports). */
  export(
    filter: AuditListFilter = {},
    sort: ListSort<AuditSortField> = defaultAuditSort,
  ): ExportChunks<AuditEntry> {
    return allChunks((cursor) =>
      this.listPage(filter, { limit: EXPORT_CHUNK_SIZE, cursor }, sort, EXPORT_CHUNK_SIZE),
    );
  }

  private listPage(
    filter: AuditListFilter,
    page: PageRequest,
    sort: ListSort<AuditSortField>,
    maxPageSize?: number,
  ): Promise<Page<AuditEntry>> {
    let query = this.context.db.selectFrom('audit_log').selectAll();
    if (filter.actorPrincipalId !== undefined)
      query = query.where('actor_principal_id', '=', filter.actorPrincipalId);
    if (filter.targetUserId !== undefined) query = query.where('target_user_id', '=', filter.targetUserId);
    if (filter.sessionId !== undefined) query = query.where('session_id', '=', filter.sessionId);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.outcome !== undefined) query = query.where('outcome', '=', filter.outcome);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from.getTime());
    if (filter.before !== undefined) query = query.where('at', '<', filter.before.getTime());
    return sortedPage(query, this.sortKey(sort.field), sort.direction, page, toAuditEntry, maxPageSize);
  }

  private sortKey(field: AuditSortField): SortKey<Selectable<AuditLogTable>> {
    switch (field) {
      case 'at':
        return numberColumnSort(field, 'at');
      case 'action':
        return textColumnSort(this.context.dialect, field, 'action');
    }
  }
}
