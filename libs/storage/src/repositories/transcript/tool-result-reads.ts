import type { Kysely } from 'kysely';
import type { Database } from '../../database-schema';
import {
  toToolResult,
  toToolResultSummary,
  type ToolResult,
  type ToolResultSummary,
} from '../../models/tool-result';
import {
  clampPageSize,
  decodeTimeCursor,
  encodeTimeCursor,
  toPage,
  type Page,
  type PageRequest,
} from '../../pagination';
import { notFound } from '../../storage-error';
import { assertSessionWithin, sessionIdsWithin, type SessionAccess } from './owner-scope';

/** The full result of one tool call in a session the access reaches; `NotFound` (a tool result) otherwise. */
export async function getToolResult(
  db: Kysely<Database>,
  access: SessionAccess,
  sessionId: string,
  toolCallId: string,
): Promise<ToolResult> {
  const row = await db
    .selectFrom('tool_results')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('tool_call_id', '=', toolCallId)
    .where('session_id', 'in', sessionIdsWithin(db, access, sessionId))
    .executeTakeFirst();
  if (row === undefined) throw notFound('tool-result');
  return toToolResult(row);
}

/** Summaries (no content) of a session's results, oldest first; `NotFound` when the access does not reach the session. */
export async function listToolResults(
  db: Kysely<Database>,
  access: SessionAccess,
  sessionId: string,
  page: PageRequest,
): Promise<Page<ToolResultSummary>> {
  await assertSessionWithin(db, access, sessionId);
  const limit = clampPageSize(page.limit);
  const after = decodeTimeCursor(page.cursor);
  let query = db
    .selectFrom('tool_results')
    .select(['id', 'session_id', 'message_id', 'tool_call_id', 'char_count', 'created_at'])
    .where('session_id', '=', sessionId);
  if (after !== null) {
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.createdAt, after.id)),
    );
  }
  const rows = await query
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, toToolResultSummary, (row) =>
    encodeTimeCursor({ createdAt: row.created_at, id: row.id }),
  );
}
