import type { StoredContentPart, StoredToolCall } from '@agentdesk/api-contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../database-schema';
import { toMessage, type Message, type MessageRole } from '../../models/message';
import { parseContentParts, parseToolCalls } from '../../models/message-columns';
import {
  clampPageSize,
  decodeSequenceCursor,
  encodeSequenceCursor,
  MAX_MESSAGE_PAGE_SIZE,
  toPage,
  type Page,
  type PageRequest,
} from '../../pagination';
import { notFound } from '../../storage-error';
import { assertSessionWithin, sessionIdsWithin, type SessionAccess } from './owner-scope';

/**
 * What a model call needs of one stored message — no usage, timestamps, compression events or
 * idempotency data — so a turn reading its history parses only that.
 */
export interface HistoryMessage {
  readonly id: string;
  readonly seq: number;
  readonly role: MessageRole;
  readonly contentParts: readonly StoredContentPart[];
  readonly toolCalls: readonly StoredToolCall[] | null;
  readonly toolCallId: string | null;
  /** The message carries an error (a tool that reported one). */
  readonly isError: boolean;
  /** See {@link Message.tokenCount}: null for rows written before counts were stored. */
  readonly tokenCount: number | null;
}

/** A page of {@link completeHistoryBefore}. */
export interface HistoryPageRequest {
  /** Only messages with a smaller `seq` (the turn's own user message, exclusive). */
  readonly beforeSeq: number;
  /** Only messages with a larger `seq` (what an earlier read already had, exclusive). */
  readonly afterSeq?: number;
  readonly limit: number;
}

/** A token count computed by the reader for a message stored without one. */
export interface TokenCountFill {
  readonly messageId: string;
  readonly tokenCount: number;
}

/** A session's transcript in `seq` order, one page; `NotFound` when the access does not reach the session. */
export async function listMessages(
  db: Kysely<Database>,
  access: SessionAccess,
  sessionId: string,
  page: PageRequest,
): Promise<Page<Message>> {
  const limit = clampPageSize(page.limit, MAX_MESSAGE_PAGE_SIZE);
  const afterSequence = decodeSequenceCursor(page.cursor);
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('session_id', 'in', sessionIdsWithin(db, access, sessionId))
    .where('seq', '>', afterSequence)
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  // An empty page is ambiguous: tell "no (more) messages" from "not a session you can read".
  if (rows.length === 0) await assertSessionWithin(db, access, sessionId);
  return toPage(rows, limit, toMessage, (row) => encodeSequenceCursor(row.seq));
}

/** One message of a session the access reaches; `NotFound` (a message) otherwise. */
export async function getMessage(
  db: Kysely<Database>,
  access: SessionAccess,
  sessionId: string,
  messageId: string,
): Promise<Message> {
  const row = await db
    .selectFrom('messages')
    .selectAll()
    .where('id', '=', messageId)
    .where('session_id', '=', sessionId)
    .where('session_id', 'in', sessionIdsWithin(db, access, sessionId))
    .executeTakeFirst();
  if (row === undefined) throw notFound('message');
  return toMessage(row);
}

/**
 * The complete messages before `beforeSeq`, newest first, at most `limit` — one indexed range read
 * of the columns a model call needs. A turn pages backwards until its history budget is spent
 * instead of reading the whole transcript. Empty for a session the access does not reach.
 */
export async function completeHistoryBefore(
  db: Kysely<Database>,
  access: SessionAccess,
  sessionId: string,
  page: HistoryPageRequest,
): Promise<HistoryMessage[]> {
  const rows = await db
    .selectFrom('messages')
    .select(['id', 'seq', 'role', 'content', 'tool_calls', 'tool_call_id', 'error', 'token_count'])
    .where('session_id', '=', sessionId)
    .where('session_id', 'in', sessionIdsWithin(db, access, sessionId))
    .where('seq', '<', page.beforeSeq)
    .where('seq', '>', page.afterSeq ?? -1)
    .where('status', '=', 'complete')
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    seq: row.seq,
    role: row.role,
    contentParts: parseContentParts(row.content),
    toolCalls: parseToolCalls(row.tool_calls),
    toolCallId: row.tool_call_id,
    isError: row.error !== null,
    tokenCount: row.token_count,
  }));
}

/**
 * Records token counts the reader computed for rows written before counts were stored (the lazy
 * backfill of migration 0009). Only fills missing counts, only in a session the access reaches.
 */
export async function fillMissingTokenCounts(
  db: Kysely<Database>,
  access: SessionAccess,
  sessionId: string,
  counts: readonly TokenCountFill[],
): Promise<void> {
  if (counts.length === 0) return;
  await db.transaction().execute(async (transaction) => {
    for (const { messageId, tokenCount } of counts) {
      await transaction
        .updateTable('messages')
        .set({ token_count: tokenCount })
        .where('id', '=', messageId)
        .where('session_id', '=', sessionId)
        .where('token_count', 'is', null)
        .where('session_id', 'in', sessionIdsWithin(transaction, access, sessionId))
        .execute();
    }
  });
}
