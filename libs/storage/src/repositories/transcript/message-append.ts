import type {
  StoredCompressionEvent,
  StoredContentPart,
  StoredToolCall,
  TurnError,
} from '@agentdesk/api-contract';
import {
  sql,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type Selectable,
  type Transaction,
} from 'kysely';
import type { Clock } from '../../clock';
import type { Database, MessagesTable } from '../../database-schema';
import { newId } from '../../ids';
import { toMessage, type Message, type MessageRole, type MessageStatus } from '../../models/message';
import { toColumnText } from '../../models/message-columns';
import type { TokenUsage } from '../../models/session';
import {
  isNotNullViolation,
  isUniqueViolation,
  notFound,
  StorageError,
  StorageErrorCode,
} from '../../storage-error';
import type { RepositoryContext } from '../repository-context';
import { addedToSessionTotals, sumUsage, usageColumns } from './session-totals';

/** A message to append. Status defaults to `complete`; pass `pending` before a model call. */
export interface NewMessage {
  /**
   * An id made with `newId()` by a caller that must know it before the write (an agent turn is
   * named by its user message's id from its first step); a new one otherwise.
   */
  readonly id?: string;
  readonly role: MessageRole;
  readonly contentParts: readonly StoredContentPart[];
  readonly toolCalls?: readonly StoredToolCall[] | null;
  readonly toolCallId?: string | null;
  readonly status?: MessageStatus;
  readonly usage?: TokenUsage | null;
  readonly error?: TurnError | null;
  readonly model?: string | null;
  readonly compressionEvents?: readonly StoredCompressionEvent[] | null;
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

/** At least one message, appended together. */
export type NewMessages = readonly [NewMessage, ...NewMessage[]];

/**
 * Appends messages with consecutive `seq`s in one transaction (one counter update, one insert). The
 * session row's counter is incremented by an `UPDATE … RETURNING` that also checks owner and open
 * status: on PostgreSQL the row lock serializes concurrent appends to one session (no retries, no
 * gaps); SQLite serializes all writes anyway. Usage is added to the session totals in the same
 * statement. Only the first message may carry an idempotency key; when it replays, nothing is
 * appended and the earlier message is returned alone.
 */
export async function appendMessages(
  context: RepositoryContext,
  ownerUserId: string,
  sessionId: string,
  inputs: NewMessages,
): Promise<AppendedMessages> {
  if (inputs.slice(1).some((input) => input.idempotencyKey != null))
    throw new TypeError('Only the first of the messages appended together may carry an idempotency key');
  const [first] = inputs;
  if (context.dialect === 'postgres' && first.idempotencyKey == null)
    return appendInOneStatement(context, ownerUserId, sessionId, inputs);
  try {
    return await context.db
      .transaction()
      .execute((transaction) => appendWithin(transaction, context.clock, ownerUserId, sessionId, inputs));
  } catch (error) {
    // Two concurrent requests with one idempotency key: the loser sees the winner's message.
    if (isUniqueViolation(error) && first.idempotencyKey != null) {
      const existing = await findByIdempotencyKey(context.db, ownerUserId, first.idempotencyKey);
      if (existing !== undefined) return { messages: [replayOf(existing, sessionId, first)], created: false };
    }
    throw error;
  }
}

async function appendWithin(
  transaction: Transaction<Database>,
  clock: Clock,
  ownerUserId: string,
  sessionId: string,
  inputs: NewMessages,
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
    const existing = await findByIdempotencyKey(transaction, ownerUserId, first.idempotencyKey);
    if (existing !== undefined) return { messages: [replayOf(existing, sessionId, first)], created: false };
  }
  const now = clock();
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
async function appendInOneStatement(
  context: RepositoryContext,
  ownerUserId: string,
  sessionId: string,
  inputs: NewMessages,
): Promise<AppendedMessages> {
  const now = context.clock();
  const last = inputs.length - 1;
  try {
    const rows = await context.db
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
    if (isNotNullViolation(error)) await explainUncountedAppend(context.db, ownerUserId, sessionId);
    throw error;
  }
}

/** The owner's message that first used this key, in any of their sessions. */
function findByIdempotencyKey(
  db: Kysely<Database>,
  ownerUserId: string,
  idempotencyKey: string,
): Promise<Selectable<MessagesTable> | undefined> {
  return db
    .selectFrom('messages')
    .innerJoin('sessions', 'sessions.id', 'messages.session_id')
    .selectAll('messages')
    .where('messages.idempotency_key', '=', idempotencyKey)
    .where('sessions.owner_user_id', '=', ownerUserId)
    .orderBy('messages.seq')
    .executeTakeFirst();
}

/**
 * The replay of a message found by its idempotency key — when the request is the same one. Another
 * session, or another fingerprint, means the key is being reused for a different request. (Rows
 * written before fingerprints existed have none; they replay as before within their session.)
 */
function replayOf(existing: Selectable<MessagesTable>, sessionId: string, input: NewMessage): Message {
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
  return toMessage(existing);
}

/** The row of a new message at `seq`. */
function newMessageRow(input: NewMessage, sessionId: string, seq: number | RawBuilder<number>, now: number) {
  const status = input.status ?? 'complete';
  return {
    id: input.id ?? newId(now),
    session_id: sessionId,
    seq,
    role: input.role,
    content: toColumnText(input.contentParts),
    tool_calls: toColumnText(input.toolCalls),
    tool_call_id: input.toolCallId ?? null,
    ...usageColumns(input.usage ?? null),
    status,
    error: toColumnText(input.error),
    model: input.model ?? null,
    compression_events: toColumnText(input.compressionEvents),
    idempotency_key: input.idempotencyKey ?? null,
    idempotency_fingerprint: input.idempotencyKey == null ? null : (input.idempotencyFingerprint ?? null),
    token_count: input.tokenCount ?? null,
    started_at: now,
    finished_at: status === 'pending' ? null : now,
    created_at: now,
  };
}

/** The UPDATE that counts appended messages on the owner's open session (and adds their usage). */
function countAppended(
  db: QueryCreator<Database>,
  ownerUserId: string,
  sessionId: string,
  inputs: NewMessages,
  now: number,
) {
  const usage = sumUsage(inputs.map((input) => input.usage));
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
  db: Kysely<Database>,
  ownerUserId: string,
  sessionId: string,
): Promise<void> {
  const session = await db
    .selectFrom('sessions')
    .select('status')
    .where('id', '=', sessionId)
    .where('owner_user_id', '=', ownerUserId)
    .executeTakeFirst();
  if (session === undefined) throw notFound('session');
  if (session.status !== 'open')
    throw new StorageError(StorageErrorCode.SessionClosed, 'session', 'The session is closed');
}
