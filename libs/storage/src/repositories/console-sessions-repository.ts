import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import type { ApiKeysTable, Database } from '../database-schema';
import { newId } from '../ids';
import { toApiKey, type ApiKey } from '../models/api-key';
import {
  toConsoleSession,
  type ConsoleSession,
  type ConsoleSessionEndReason,
  type ConsoleWayIn,
} from '../models/console-session';
import { newestFirstPage } from '../newest-first-page';
import type { Page, PageRequest } from '../pagination';
import { isForeignKeyViolation, notFound } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** A console sign-in to store. Making the token and hashing it is the auth layer's job. */
export interface NewConsoleSession {
  /** SHA-256 of the token the console keeps (lowercase hex); the token itself is never stored. */
  readonly tokenHash: string;
  readonly userId: string;
  readonly wayIn: ConsoleWayIn;
  /** The key of an `api-key` sign-in; null otherwise. */
  readonly apiKeyId: string | null;
  readonly idleTimeoutMs: number;
  readonly absoluteTimeoutMs: number;
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
}

/** Filters of the admin list. */
export interface ConsoleSessionListFilter {
  /** One user's sessions only. */
  readonly userId?: string;
  /** Ended and timed-out sessions too (default: open ones only). */
  readonly includeEnded?: boolean;
}

/** An open console session and, for a key sign-in, its key (unrevoked), as one lookup finds them. */
export interface OpenConsoleSession {
  readonly session: ConsoleSession;
  readonly apiKey: ApiKey | null;
}

type SessionsExpression = ExpressionBuilder<Database, 'console_sessions'>;

/**
 * Console sessions, found by the hash of their token. "Open" means not ended and neither timeout
 * passed, by this repository's clock; the checks are in the WHERE clause, so an ended session stops
 * working on the very next request on every replica (nothing about a session is cached).
 */
export class ConsoleSessionsRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Stores a new session, its idle and absolute expiry counted from now; `NotFound` for an unknown user or key. */
  async create(input: NewConsoleSession): Promise<ConsoleSession> {
    const now = this.context.clock();
    const absoluteExpiresAt = now + input.absoluteTimeoutMs;
    try {
      const row = await this.context.db
        .insertInto('console_sessions')
        .values({
          id: newId(now),
          token_hash: input.tokenHash,
          user_id: input.userId,
          api_key_id: input.apiKeyId,
          way_in: input.wayIn,
          created_at: now,
          last_seen_at: now,
          idle_expires_at: Math.min(now + input.idleTimeoutMs, absoluteExpiresAt),
          absolute_expires_at: absoluteExpiresAt,
          client_address: input.clientAddress,
          user_agent: input.userAgent,
          ended_at: null,
          end_reason: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toConsoleSession(row, now);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound(input.apiKeyId === null ? 'user' : 'api-key');
      throw error;
    }
  }

  /**
   * The open session with this token hash, with the key it was made with, in one statement. A
   * session whose key is revoked (or gone) is not open: whoever revoked it (the admin route, the
   * host command) ended its sign-ins too.
   */
  async findOpenByTokenHash(tokenHash: string): Promise<OpenConsoleSession | undefined> {
    const now = this.context.clock();
    const row = await this.context.db
      .selectFrom('console_sessions as s')
      .leftJoin('api_keys as k', 'k.id', 's.api_key_id')
      .selectAll('s')
      .select([
        'k.id as key_id',
        'k.prefix as key_prefix',
        'k.secret_hash as key_secret_hash',
        'k.role as key_role',
        'k.owner_user_id as key_owner_user_id',
        'k.portal_id as key_portal_id',
        'k.trust_client_user_id as key_trust_client_user_id',
        'k.label as key_label',
        'k.created_at as key_created_at',
        'k.revoked_at as key_revoked_at',
        'k.last_used_at as key_last_used_at',
      ])
      .where('s.token_hash', '=', tokenHash)
      .where('s.ended_at', 'is', null)
      .where('s.idle_expires_at', '>', now)
      .where('s.absolute_expires_at', '>', now)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const session = toConsoleSession(row, now);
    if (row.api_key_id === null) return { session, apiKey: null };
    if (row.key_id === null || row.key_revoked_at !== null) return undefined;
    const key: Selectable<ApiKeysTable> = {
      id: row.key_id,
      prefix: row.key_prefix ?? '',
      secret_hash: row.key_secret_hash ?? '',
      role: row.key_role ?? 'user',
      owner_user_id: row.key_owner_user_id,
      portal_id: row.key_portal_id,
      trust_client_user_id: row.key_trust_client_user_id ?? 0,
      label: row.key_label ?? '',
      created_at: row.key_created_at ?? 0,
      revoked_at: row.key_revoked_at,
      last_used_at: row.key_last_used_at,
    };
    return { session, apiKey: toApiKey(key) };
  }

  /**
   * Records a use: `last_seen_at` = now and the idle expiry slid forward (never past the absolute
   * one). Skipped — no statement at all — when the session was seen less than `minimumIntervalMs`
   * ago, so a busy console page does not write on every request; the idle timeout is then counted
   * from the last recorded use, at most `minimumIntervalMs` early.
   */
  async recordActivity(
    session: ConsoleSession,
    idleTimeoutMs: number,
    minimumIntervalMs: number,
  ): Promise<void> {
    const now = this.context.clock();
    if (now - session.lastSeenAt.getTime() < minimumIntervalMs) return;
    await this.context.db
      .updateTable('console_sessions')
      .set({
        last_seen_at: now,
        idle_expires_at: Math.min(now + idleTimeoutMs, session.absoluteExpiresAt.getTime()),
      })
      .where('id', '=', session.id)
      .where('ended_at', 'is', null)
      .where('last_seen_at', '<', now)
      .execute();
  }

  /** A session by its public id, open or not; `NotFound` when missing. */
  async getById(id: string): Promise<ConsoleSession> {
    const row = await this.context.db
      .selectFrom('console_sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('console-session');
    return toConsoleSession(row, this.context.clock());
  }

  /**
   * Ends one session now. Idempotent: a session already ended keeps its first end (time and
   * reason) and is returned as it is; `NotFound` when missing.
   */
  async end(id: string, reason: ConsoleSessionEndReason): Promise<ConsoleSession> {
    const now = this.context.clock();
    const row = await this.context.db
      .updateTable('console_sessions')
      .set({ ended_at: now, end_reason: reason })
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? this.getById(id) : toConsoleSession(row, now);
  }

  /** Ends every open session of a user ("sign out everywhere", a role change); returns how many. */
  async endAllOfUser(userId: string, reason: ConsoleSessionEndReason): Promise<number> {
    return this.endOpenWhere(reason, (eb) => eb('user_id', '=', userId));
  }

  /** Ends every open session made with a key (it was revoked); returns how many. */
  async endAllOfApiKey(apiKeyId: string, reason: ConsoleSessionEndReason): Promise<number> {
    return this.endOpenWhere(reason, (eb) => eb('api_key_id', '=', apiKeyId));
  }

  /** Sessions, newest first (admin only): open ones unless `includeEnded`. */
  async list(filter: ConsoleSessionListFilter = {}, page: PageRequest = {}): Promise<Page<ConsoleSession>> {
    const now = this.context.clock();
    let query = this.context.db.selectFrom('console_sessions').selectAll();
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.includeEnded !== true) query = query.where((eb) => this.isOpen(eb, now));
    return newestFirstPage(query, page, (row) => toConsoleSession(row, now));
  }

  private async endOpenWhere(
    reason: ConsoleSessionEndReason,
    which: (eb: SessionsExpression) => Expression<SqlBool>,
  ): Promise<number> {
    const now = this.context.clock();
    const ended = await this.context.db
      .updateTable('console_sessions')
      .set({ ended_at: now, end_reason: reason })
      .where((eb) => eb.and([which(eb), this.isOpen(eb, now)]))
      .returning('id')
      .execute();
    return ended.length;
  }

  private isOpen(eb: SessionsExpression, now: number = this.context.clock()): Expression<SqlBool> {
    return eb.and([
      eb('ended_at', 'is', null),
      eb('idle_expires_at', '>', now),
      eb('absolute_expires_at', '>', now),
    ]);
  }
}
