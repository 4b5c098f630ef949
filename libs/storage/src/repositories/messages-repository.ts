import {
  sql,
  type ExpressionBuilder,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type Selectable,
  type Transaction,
} from 'kysely';
import type { Database, MessagesTable } from '../database-schema';
import { newId } from '../ids';
import { fromJsonText, fromNullableJsonText, toJsonText, toNullableJsonText, type JsonObject } from '../json';
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
import {
  isNotNullViolation,
  isUniqueViolation,
  notFound,
  StorageError,
  StorageErrorCode,
} from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** A message to append. Status defaults to `complete`; pass `pending` before a model call. */
export interface NewMessage {
  /**
   * An id made with `newId()` by a caller that must know it before the write (an agent turn is
   * named by its user message's id from its first step); a new one otherwise.
   */
  readonly id?: string;
  readonly role: MessageRole;
  readonly contentParts: readonly JsonObject[];
  readonly toolCalls?: readonly JsonObject[] | null;
  readonly toolCallId?: string | null;
  readonly status?: MessageStatus;
  readonly usage?: TokenUsage | null;
  readonly error?: MessageError | null;
  readonly model?: string | null;
  readonly compressionEvents?: readonly JsonObject[] | null;
  /** Tokens the message costs the model, counted by the caller from the content it stores. */
  readonly tokenCount?: number | null;
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

/**
 * Messages appended together, in `seq` order, and whether this call created them (false: the
 * first one's idempotency key replayed an earlier message; nothing else was appended).
 */
export interface AppendedMessages {
  readonly messages: readonly Message[];
  readonly created: boolean;
}

/** Options of {@link MessagesRepository.finish}. */
export interface FinishOptions {
  /** Release this turn's session lease in the same transaction (the turn's last write). */
  readonly releaseLeaseOf?: string;
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
      /** Tokens of the final content and tool calls (see {@link NewMessage.tokenCount}). */
      readonly tokenCount?: number | null;
    }
  | {
      readonly status: 'failed';
      readonly error: MessageError;
      readonly usage?: TokenUsage | null;
      /** What the model produced before the failure (e.g. a stream cut or a client disconnect). */
      readonly contentParts?: readonly JsonObject[];
      readonly model?: string | null;
      readonly compressionEvents?: readonly JsonObject[] | null;
      readonly tokenCount?: number | null;
    };

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * What a model call needs of one stored message — no usage, timestamps, compression events or
 * idempotency data — so a turn reading its history parses only that.
 */
export interface HistoryMessage {
  readonly id: string;
  readonly seq: number;
  readonly role: MessageRole;
  readonly contentParts: readonly JsonObject[];
  readonly toolCalls: readonly JsonObject[] | null;
  readonly toolCallId: string | null;
  /** The message carries an error (a tool that reported one). */
  readonly isError: boolean;
  /** See {@link Message.tokenCount}: null for rows written before counts were stored. */
  readonly tokenCount: number | null;
}

/** A page of {@link MessagesRepository.completeHistoryBefore}. */
export interface HistoryPageRequest {
  /** Only messages with a smaller `seq` (the turn's own user message, exclusive). */
  readonly beforeSeq: number;
  /** Only messages with a larger `seq` (what an earlier read already had, exclusive). */
  readonly afterSeq?: number;
  readonly limit: number;
}

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
    const appended = await this.appendAll(ownerUserId, sessionId, [input]);
    return { message: appended.messages[0]!, created: appended.created };
  }

  /**
   * Appends several messages with consecutive `seq`s in one transaction (one counter update, one
   * insert): an agent turn stores its user message and its first pending answer in one go. Only the
   * first message may carry an idempotency key; when it replays, nothing is appended and the
   * earlier message is returned alone.
   */
  async appendAll(
    ownerUserId: string,
    sessionId: string,
    inputs: readonly [NewMessage, ...NewMessage[]],
  ): Promise<AppendedMessages> {
    if (inputs.slice(1).some((input) => input.idempotencyKey != null))
      throw new TypeError('Only the first of the messages appended together may carry an idempotency key');
    const [first] = inputs;
    if (this.context.dialect === 'postgres' && first.idempotencyKey == null)
      return this.appendInOneStatement(ownerUserId, sessionId, inputs);
    try {
      return await this.context.db
        .transaction()
        .execute((transaction) => this.appendWithin(transaction, ownerUserId, sessionId, inputs));
    } catch (error) {
      // Two concurrent requests with one idempotency key: the loser sees the winner's message.
      if (isUniqueViolation(error) && first.idempotencyKey != null) {
        const existing = await this.findByIdempotencyKey(this.context.db, ownerUserId, first.idempotencyKey);
        if (existing !== undefined) {
          const replay = replayOf(existing, sessionId, first);
          return { messages: [replay.message], created: false };
        }
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
    options: FinishOptions = {},
  ): Promise<Message> {
    const now = this.context.clock();
    const target = { ownerUserId, sessionId, messageId };
    const finishMessage = (db: QueryCreator<Database>) => finishPendingMessage(db, target, outcome, now);
    const addToSession = (db: QueryCreator<Database>) =>
      addFinishedToSession(db, target, outcome.usage ?? null, options.releaseLeaseOf, now);
    let row: Selectable<MessagesTable> | undefined;
    if (this.context.dialect === 'postgres') {
      // One statement, one round trip (instead of BEGIN, two UPDATEs and COMMIT): both updates of a
      // data-modifying WITH commit together, and the session's only when the message was pending.
      row = await this.context.db
        .with('finished', (db) => finishMessage(db).returningAll())
        // (The builder is typed for the tables alone; the WITH's own name is referred to in SQL.)
        .with('session_totals', (db) =>
          addToSession(db as unknown as QueryCreator<Database>)
            .where(sql<boolean>`exists (select 1 from finished)`)
            .returning('sessions.id'),
        )
        .selectFrom('finished')
        .selectAll('finished')
        .executeTakeFirst();
    } else {
      row = await this.context.db.transaction().execute(async (transaction) => {
        const finished = await finishMessage(transaction).returningAll().executeTakeFirst();
        if (finished !== undefined) await addToSession(transaction).execute();
        return finished;
      });
    }
    if (row === undefined) {
      await this.getWithin(this.context.db, ownerUserId, sessionId, messageId);
      throw new StorageError(
        StorageErrorCode.MessageNotPending,
        'message',
        'The message has already finished',
      );
    }
    return toMessage(row);
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

  /**
   * The owner's complete messages before `beforeSeq`, newest first, at most `limit` — one indexed
   * range read of the columns a model call needs. A turn pages backwards until its history budget
   * is spent instead of reading the whole transcript. Empty for a session that is not the owner's.
   */
  async completeHistoryBefore(
    ownerUserId: string,
    sessionId: string,
    page: HistoryPageRequest,
  ): Promise<HistoryMessage[]> {
    const rows = await this.context.db
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .select([
        'messages.id',
        'messages.seq',
        'messages.role',
        'messages.content',
        'messages.tool_calls',
        'messages.tool_call_id',
        'messages.error',
        'messages.token_count',
      ])
      .where('messages.session_id', '=', sessionId)
      .where('sessions.owner_user_id', '=', ownerUserId)
      .where('messages.seq', '<', page.beforeSeq)
      .where('messages.seq', '>', page.afterSeq ?? -1)
      .where('messages.status', '=', 'complete')
      .orderBy('messages.seq', 'desc')
      .limit(page.limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      seq: row.seq,
      role: row.role,
      contentParts: fromJsonText<JsonObject[]>(row.content),
      toolCalls: fromNullableJsonText<JsonObject[]>(row.tool_calls),
      toolCallId: row.tool_call_id,
      isError: row.error !== null,
      tokenCount: row.token_count,
    }));
  }

  /**
   * Records token counts the reader computed for rows written before counts were stored (the lazy
   * backfill of migration 0009). Only fills missing counts, only in the owner's session.
   */
  async fillMissingTokenCounts(
    ownerUserId: string,
    sessionId: string,
    counts: ReadonlyArray<{ readonly messageId: string; readonly tokenCount: number }>,
  ): Promise<void> {
    if (counts.length === 0) return;
    await this.context.db.transaction().execute(async (transaction) => {
      for (const { messageId, tokenCount } of counts) {
        await transaction
          .updateTable('messages')
          .set({ token_count: tokenCount })
          .where('id', '=', messageId)
          .where('session_id', '=', sessionId)
          .where('token_count', 'is', null)
          .where('session_id', 'in', (eb) =>
            eb
              .selectFrom('sessions')
              .select('id')
              .where('id', '=', sessionId)
              .where('owner_user_id', '=', ownerUserId),
          )
          .execute();
      }
    });
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
    inputs: readonly [NewMessage, ...NewMessage[]],
  ): Promise<AppendedMessages> {
    const [first] = inputs;
    if (first.idempotencyKey != null) {
      // Keyed appends of one owner take turns (a no-op write locks the owner's row on PostgreSQL;
      // SQLite serializes writes anyway), so the same key sent to two sessions at once cannot
      // slip past the lookup below on both.
      await transaction
        .updateTable('users')
        .set((eb) => ({ display_name: eb.ref('display_name') }))
        .where('id', '=', ownerUserId)
        .execute();
      const existing = await this.findByIdempotencyKey(transaction, ownerUserId, first.idempotencyKey);
      if (existing !== undefined) {
        const replay = replayOf(existing, sessionId, first);
        return { messages: [replay.message], created: false };
      }
    }
    const now = this.context.clock();
    const counter = await countAppended(transaction, ownerUserId, sessionId, inputs, now)
      .returning('message_count')
      .executeTakeFirst();
    if (counter === undefined) {
      await explainUncountedAppend(transaction, ownerUserId, sessionId);
      // The UPDATE's only conditions are owner and status, which the read just found in order.
      throw new Error('The session was open and the owner’s, yet its message counter was not updated');
    }
    const firstSeq = counter.message_count - inputs.length + 1;
    const rows = await transaction
      .insertInto('messages')
      .values(inputs.map((input, index) => newMessageRow(input, sessionId, firstSeq + index, now)))
      .returningAll()
      .execute();
    // A multi-row INSERT … RETURNING gives no order guarantee: put them back in `seq` order.
    rows.sort((left, right) => left.seq - right.seq);
    return { messages: rows.map(toMessage), created: true };
  }

  /**
   * PostgreSQL, without an idempotency key: the counter's UPDATE and the INSERT are one
   * data-modifying WITH — one round trip instead of BEGIN, UPDATE, INSERT and COMMIT, as atomic.
   * Each row's `seq` is read from the counter's RETURNING; when no open session of the owner was
   * counted there is none, so the NOT NULL constraint on `seq` refuses every row, and the session
   * is then read to say why (missing or closed).
   */
  private async appendInOneStatement(
    ownerUserId: string,
    sessionId: string,
    inputs: readonly [NewMessage, ...NewMessage[]],
  ): Promise<AppendedMessages> {
    const now = this.context.clock();
    const last = inputs.length - 1;
    try {
      const rows = await this.context.db
        .with('counter', (db) =>
          countAppended(db, ownerUserId, sessionId, inputs, now).returning('message_count'),
        )
        .insertInto('messages')
        .values(
          inputs.map((input, index) =>
            newMessageRow(
              input,
              sessionId,
              sql<number>`(select message_count from counter) - ${last - index}`,
              now,
            ),
          ),
        )
        .returningAll()
        .execute();
      rows.sort((left, right) => left.seq - right.seq);
      return { messages: rows.map(toMessage), created: true };
    } catch (error) {
      if (isNotNullViolation(error)) await explainUncountedAppend(this.context.db, ownerUserId, sessionId);
      throw error;
    }
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

/** The row of a new message at `seq`. */
function newMessageRow(input: NewMessage, sessionId: string, seq: number | RawBuilder<number>, now: number) {
  const status = input.status ?? 'complete';
  return {
    id: input.id ?? newId(now),
    session_id: sessionId,
    seq,
    role: input.role,
    content: toJsonText(input.contentParts),
    tool_calls: toNullableJsonText(input.toolCalls),
    tool_call_id: input.toolCallId ?? null,
    ...usageColumns(input.usage ?? null),
    status,
    error: input.error == null ? null : JSON.stringify(input.error),
    model: input.model ?? null,
    compression_events: toNullableJsonText(input.compressionEvents),
    idempotency_key: input.idempotencyKey ?? null,
    idempotency_fingerprint: input.idempotencyKey == null ? null : (input.idempotencyFingerprint ?? null),
    token_count: input.tokenCount ?? null,
    started_at: now,
    finished_at: status === 'pending' ? null : now,
    created_at: now,
  };
}

/** The usage the messages add to the session totals; null when none carries any. */
function sumUsage(inputs: readonly NewMessage[]): TokenUsage | null {
  const usages = inputs.flatMap((input) => (input.usage == null ? [] : [input.usage]));
  if (usages.length === 0) return null;
  return usages.reduce((total, usage) => ({
    input: total.input + usage.input,
    output: total.output + usage.output,
    thinking: total.thinking + usage.thinking,
    cached: total.cached + usage.cached,
  }));
}

/** Which pending message a `finish` ends. */
interface FinishTarget {
  readonly ownerUserId: string;
  readonly sessionId: string;
  readonly messageId: string;
}

/** The UPDATE that ends a pending message of the owner's session (nothing when it is not pending). */
function finishPendingMessage(
  db: QueryCreator<Database>,
  target: FinishTarget,
  outcome: MessageOutcome,
  now: number,
) {
  const usage = outcome.usage ?? null;
  return db
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
      ...(outcome.tokenCount === undefined ? {} : { token_count: outcome.tokenCount }),
      ...(outcome.compressionEvents === undefined
        ? {}
        : { compression_events: toNullableJsonText(outcome.compressionEvents) }),
    })
    .where('id', '=', target.messageId)
    .where('session_id', '=', target.sessionId)
    .where('status', '=', 'pending')
    .where('session_id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', target.sessionId)
        .where('owner_user_id', '=', target.ownerUserId),
    );
}

/** The UPDATE that adds a finished message's usage to its session and, on the turn's last write, frees the lease. */
function addFinishedToSession(
  db: QueryCreator<Database>,
  target: FinishTarget,
  usage: TokenUsage | null,
  releasedTurn: string | undefined,
  now: number,
) {
  return db
    .updateTable('sessions')
    .set((eb) => ({
      updated_at: now,
      ...addedToSessionTotals(eb, usage),
      // The turn's last write gives its lease back in the same statement (a no-op when another
      // turn holds it), instead of one more round trip after it.
      ...(releasedTurn === undefined
        ? {}
        : {
            active_turn_id: sql<
              string | null
            >`case when active_turn_id = ${releasedTurn} then null else active_turn_id end`,
            active_turn_expires_at: sql<
              number | null
            >`case when active_turn_id = ${releasedTurn} then null else active_turn_expires_at end`,
          }),
    }))
    .where('id', '=', target.sessionId)
    .where('owner_user_id', '=', target.ownerUserId);
}

/** A session's token totals plus `usage` (nothing to set without usage). */
function addedToSessionTotals(eb: ExpressionBuilder<Database, 'sessions'>, usage: TokenUsage | null) {
  if (usage === null) return {};
  return {
    input_tokens: eb('input_tokens', '+', usage.input),
    output_tokens: eb('output_tokens', '+', usage.output),
    thinking_tokens: eb('thinking_tokens', '+', usage.thinking),
    cached_tokens: eb('cached_tokens', '+', usage.cached),
  };
}

/** The UPDATE that counts appended messages on the owner's open session (and adds their usage). */
function countAppended(
  db: QueryCreator<Database>,
  ownerUserId: string,
  sessionId: string,
  inputs: readonly NewMessage[],
  now: number,
) {
  const usage = sumUsage(inputs);
  return db
    .updateTable('sessions')
    .set((eb) => ({
      message_count: eb('message_count', '+', inputs.length),
      updated_at: now,
      ...addedToSessionTotals(eb, usage),
    }))
    .where('id', '=', sessionId)
    .where('owner_user_id', '=', ownerUserId)
    .where('status', '=', 'open');
}

/**
 * Says why an append counted nothing: `NotFound` for a missing or foreign session, `SessionClosed`
 * for a closed one. Returns when the owner's session is open (the cause was something else).
 */
async function explainUncountedAppend(
  executor: Executor,
  ownerUserId: string,
  sessionId: string,
): Promise<void> {
  const session = await executor
    .selectFrom('sessions')
    .select('status')
    .where('id', '=', sessionId)
    .where('owner_user_id', '=', ownerUserId)
    .executeTakeFirst();
  if (session === undefined) throw notFound('session');
  if (session.status !== 'open')
    throw new StorageError(StorageErrorCode.SessionClosed, 'session', 'The session is closed');
}
