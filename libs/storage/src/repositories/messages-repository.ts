import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MessagesTable } from '../database-schema';
import { newId } from '../ids';
import { toJsonText, toNullableJsonText, type JsonObject } from '../json';
import {
  toMessage,
  type Message,
  type MessageError,
  type MessageRole,
  type MessageStatus,
} from '../models/message';
import type { TokenUsage } from '../models/session';
import {
  clampPageSize,
  decodeSequenceCursor,
  encodeSequenceCursor,
  MAX_MESSAGE_PAGE_SIZE,
  toPage,
  type Page,
  type PageRequest,
} from '../pagination';
import { isUniqueViolation, notFound, StorageError, StorageErrorCode } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** A message to append. Status defaults to `complete`; pass `pending` before a model call. */
export interface NewMessage {
  readonly role: MessageRole;
  readonly contentParts: readonly JsonObject[];
  readonly toolCalls?: readonly JsonObject[] | null;
  readonly toolCallId?: string | null;
  readonly status?: MessageStatus;
  readonly usage?: TokenUsage | null;
  readonly error?: MessageError | null;
  readonly model?: string | null;
  readonly compressionEvents?: readonly JsonObject[] | null;
  /**
   * A retried request with the same key returns the first message instead of appending again.
   * Keys are unique per owner across sessions: reusing one for another session is refused.
   */
  readonly idempotencyKey?: string | null;
  /**
   * A hash of the canonical request the key comes with. A later request with the same key and
   * another fingerprint is refused (`IdempotencyKeyReused`) rather than replayed.
   */
  readonly idempotencyFingerprint?: string | null;
}

/** The appended message, and whether this call created it (false: an idempotent replay). */
export interface AppendedMessage {
  readonly message: Message;
  readonly created: boolean;
}

/** How a pending message ended. */
export type MessageOutcome =
  | {
      readonly status: 'complete';
      readonly contentParts?: readonly JsonObject[];
      readonly toolCalls?: readonly JsonObject[] | null;
      readonly usage?: TokenUsage | null;
      readonly model?: string | null;
      readonly compressionEvents?: readonly JsonObject[] | null;
    }
  | {
      readonly status: 'failed';
      readonly error: MessageError;
      readonly usage?: TokenUsage | null;
      /** What the model produced before the failure (e.g. a stream cut or a client disconnect). */
      readonly contentParts?: readonly JsonObject[];
      readonly model?: string | null;
      readonly compressionEvents?: readonly JsonObject[] | null;
    };

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The ordered transcript of a session. Owner methods join or filter on the session's owner in the
 * same statement, so a foreign session behaves exactly like a missing one.
 */
export class MessagesRepository {
  constructor(private readonly context: RepositoryContext) {}

  /**
   * Appends a message with the next `seq`. The session row's counter is incremented by an
   * `UPDATE … RETURNING` that also checks owner and open status: on PostgreSQL the row lock
   * serializes concurrent appends to one session (no retries, no gaps); SQLite serializes all
   * writes anyway. Usage, when given, is added to the session totals in the same statement.
   */
  async append(ownerUserId: string, sessionId: string, input: NewMessage): Promise<AppendedMessage> {
    try {
      return await this.context.db
        .transaction()
        .execute((transaction) => this.appendWithin(transaction, ownerUserId, sessionId, input));
    } catch (error) {
      // Two concurrent requests with one idempotency key: the loser sees the winner's message.
      if (isUniqueViolation(error) && input.idempotencyKey != null) {
        const existing = await this.findByIdempotencyKey(this.context.db, ownerUserId, input.idempotencyKey);
        if (existing !== undefined) return replayOf(existing, sessionId, input);
      }
      throw error;
    }
  }

  /**
   * Records how a pending message ended and adds its usage to the session totals, atomically.
   * `NotFound` when the message is not in the owner's session; `MessageNotPending` when it already ended.
   */
  async finish(
    ownerUserId: string,
    sessionId: string,
    messageId: string,
    outcome: MessageOutcome,
  ): Promise<Message> {
    return this.context.db.transaction().execute(async (transaction) => {
      const now = this.context.clock();
      const usage = outcome.usage ?? null;
      const row = await transaction
        .updateTable('messages')
        .set({
          status: outcome.status,
          finished_at: now,
          ...(usage === null ? {} : usageColumns(usage)),
          ...(outcome.status === 'failed' ? { error: JSON.stringify(outcome.error) } : {}),
          ...(outcome.status === 'complete' && outcome.toolCalls !== undefined
            ? { tool_calls: toNullableJsonText(outcome.toolCalls) }
            : {}),
          ...(outcome.contentParts === undefined ? {} : { content: toJsonText(outcome.contentParts) }),
          ...(outcome.model === undefined ? {} : { model: outcome.model }),
          ...(outcome.compressionEvents === undefined
            ? {}
            : { compression_events: toNullableJsonText(outcome.compressionEvents) }),
        })
        .where('id', '=', messageId)
        .where('session_id', '=', sessionId)
        .where('status', '=', 'pending')
        .where('session_id', 'in', (eb) =>
          eb
            .selectFrom('sessions')
            .select('id')
            .where('id', '=', sessionId)
            .where('owner_user_id', '=', ownerUserId),
        )
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) {
        await this.getWithin(transaction, ownerUserId, sessionId, messageId);
        throw new StorageError(
          StorageErrorCode.MessageNotPending,
          'message',
          'The message has already finished',
        );
      }
      await transaction
        .updateTable('sessions')
        .set((eb) => ({
          updated_at: now,
          ...(usage === null
            ? {}
            : {
                input_tokens: eb('input_tokens', '+', usage.input),
                output_tokens: eb('output_tokens', '+', usage.output),
                thinking_tokens: eb('thinking_tokens', '+', usage.thinking),
                cached_tokens: eb('cached_tokens', '+', usage.cached),
              }),
        }))
        .where('id', '=', sessionId)
        .where('owner_user_id', '=', ownerUserId)
        .execute();
      return toMessage(row);
    });
  }

  /** One message of the owner's session. */
  getForOwner(ownerUserId: string, sessionId: string, messageId: string): Promise<Message> {
    return this.getWithin(this.context.db, ownerUserId, sessionId, messageId);
  }

  /** The owner's transcript in `seq` order; `NotFound` when the session is not the owner's. */
  async listForOwner(ownerUserId: string, sessionId: string, page: PageRequest = {}): Promise<Page<Message>> {
    const limit = clampPageSize(page.limit, MAX_MESSAGE_PAGE_SIZE);
    const afterSequence = decodeSequenceCursor(page.cursor);
    const rows = await this.context.db
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .selectAll('messages')
      .where('messages.session_id', '=', sessionId)
      .where('sessions.owner_user_id', '=', ownerUserId)
      .where('messages.seq', '>', afterSequence)
      .orderBy('messages.seq')
      .limit(limit + 1)
      .execute();
    // An empty page is ambiguous: tell "no (more) messages" from "not your session".
    if (rows.length === 0) await this.assertOwnedSession(ownerUserId, sessionId);
    return toPage(rows, limit, toMessage, (row) => encodeSequenceCursor(row.seq));
  }

  /** Any session's transcript, for audited admin/viewer reads. */
  async listForAdmin(sessionId: string, page: PageRequest = {}): Promise<Page<Message>> {
    const limit = clampPageSize(page.limit, MAX_MESSAGE_PAGE_SIZE);
    const afterSequence = decodeSequenceCursor(page.cursor);
    const rows = await this.context.db
      .selectFrom('messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('seq', '>', afterSequence)
      .orderBy('seq')
      .limit(limit + 1)
      .execute();
    if (rows.length === 0) {
      const session = await this.context.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (session === undefined) throw notFound('session');
    }
    return toPage(rows, limit, toMessage, (row) => encodeSequenceCursor(row.seq));
  }

  private async appendWithin(
    transaction: Transaction<Database>,
    ownerUserId: string,
    sessionId: string,
    input: NewMessage,
  ): Promise<AppendedMessage> {
    if (input.idempotencyKey != null) {
      // Keyed appends of one owner take turns (a no-op write locks the owner's row on PostgreSQL;
      // SQLite serializes writes anyway), so the same key sent to two sessions at once cannot
      // slip past the lookup below on both.
      await transaction
        .updateTable('users')
        .set((eb) => ({ display_name: eb.ref('display_name') }))
        .where('id', '=', ownerUserId)
        .execute();
      const existing = await this.findByIdempotencyKey(transaction, ownerUserId, input.idempotencyKey);
      if (existing !== undefined) return replayOf(existing, sessionId, input);
    }
    const now = this.context.clock();
    const usage = input.usage ?? null;
    const counter = await transaction
      .updateTable('sessions')
      .set((eb) => ({
        message_count: eb('message_count', '+', 1),
        updated_at: now,
        ...(usage === null
          ? {}
          : {
              input_tokens: eb('input_tokens', '+', usage.input),
              output_tokens: eb('output_tokens', '+', usage.output),
              thinking_tokens: eb('thinking_tokens', '+', usage.thinking),
              cached_tokens: eb('cached_tokens', '+', usage.cached),
            }),
      }))
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .where('status', '=', 'open')
      .returning('message_count')
      .executeTakeFirst();
    if (counter === undefined) {
      const session = await transaction
        .selectFrom('sessions')
        .select('status')
        .where('id', '=', sessionId)
        .where('owner_user_id', '=', ownerUserId)
        .executeTakeFirst();
      if (session === undefined) throw notFound('session');
      throw new StorageError(StorageErrorCode.SessionClosed, 'session', 'The session is closed');
    }
    const status = input.status ?? 'complete';
    const row = await transaction
      .insertInto('messages')
      .values({
        id: newId(now),
        session_id: sessionId,
        seq: counter.message_count,
        role: input.role,
        content: toJsonText(input.contentParts),
        tool_calls: toNullableJsonText(input.toolCalls),
        tool_call_id: input.toolCallId ?? null,
        ...usageColumns(usage),
        status,
        error: input.error == null ? null : JSON.stringify(input.error),
        model: input.model ?? null,
        compression_events: toNullableJsonText(input.compressionEvents),
        idempotency_key: input.idempotencyKey ?? null,
        idempotency_fingerprint: input.idempotencyKey == null ? null : (input.idempotencyFingerprint ?? null),
        started_at: now,
        finished_at: status === 'pending' ? null : now,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { message: toMessage(row), created: true };
  }

  /** The owner's message that first used this key, in any of their sessions. */
  private findByIdempotencyKey(
    executor: Executor,
    ownerUserId: string,
    idempotencyKey: string,
  ): Promise<Selectable<MessagesTable> | undefined> {
    return executor
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .selectAll('messages')
      .where('messages.idempotency_key', '=', idempotencyKey)
      .where('sessions.owner_user_id', '=', ownerUserId)
      .orderBy('messages.seq')
      .executeTakeFirst();
  }

  private async getWithin(
    executor: Executor,
    ownerUserId: string,
    sessionId: string,
    messageId: string,
  ): Promise<Message> {
    const row = await executor
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .selectAll('messages')
      .where('messages.id', '=', messageId)
      .where('messages.session_id', '=', sessionId)
      .where('sessions.owner_user_id', '=', ownerUserId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('message');
    return toMessage(row);
  }

  private async assertOwnedSession(ownerUserId: string, sessionId: string): Promise<void> {
    const session = await this.context.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .executeTakeFirst();
    if (session === undefined) throw notFound('session');
  }
}

/**
 * The replay of a message found by its idempotency key — when the request is the same one. Another
 * session, or another fingerprint, means the key is being reused for a different request. (Rows
 * written before fingerprints existed have none; they replay as before within their session.)
 */
function replayOf(
  existing: Selectable<MessagesTable>,
  sessionId: string,
  input: NewMessage,
): AppendedMessage {
  if (existing.session_id !== sessionId) {
    throw new StorageError(
      StorageErrorCode.IdempotencyKeyReused,
      'message',
      'This Idempotency-Key was already used for a request to another session; use a new key for a new request',
    );
  }
  if (
    existing.idempotency_fingerprint !== null &&
    existing.idempotency_fingerprint !== (input.idempotencyFingerprint ?? null)
  ) {
    throw new StorageError(
      StorageErrorCode.IdempotencyKeyReused,
      'message',
      'This Idempotency-Key was already used with a different request (body or streaming mode); use a new key for a new request',
    );
  }
  return { message: toMessage(existing), created: false };
}

function usageColumns(usage: TokenUsage | null): {
  input_tokens: number | null;
  output_tokens: number | null;
  thinking_tokens: number | null;
  cached_tokens: number | null;
} {
  return {
    input_tokens: usage?.input ?? null,
    output_tokens: usage?.output ?? null,
    thinking_tokens: usage?.thinking ?? null,
    cached_tokens: usage?.cached ?? null,
  };
}
