import { newId } from '../ids';
import {
  toToolResult,
  toToolResultSummary,
  type ToolResult,
  type ToolResultSummary,
} from '../models/tool-result';
import {
  clampPageSize,
  decodeTimeCursor,
  encodeTimeCursor,
  toPage,
  type Page,
  type PageRequest,
} from '../pagination';
import { isUniqueViolation, notFound, StorageError, StorageErrorCode } from '../storage-error';
import type { RepositoryContext } from './repository-context';

/** A full tool result to keep. */
export interface NewToolResult {
  readonly sessionId: string;
  /** The message the result belongs to; must be in the same session. */
  readonly messageId?: string | null;
  readonly toolCallId: string;
  readonly content: string;
}

/**
 * Full tool outputs (the model may have seen a truncated copy; the console shows the whole).
 * Owner methods check the session's owner in the same statement.
 */
export class ToolResultsRepository {
  constructor(private readonly context: RepositoryContext) {}

  /**
   * Stores a result. `NotFound` when the session (or the message) is not the owner's;
   * `Conflict` when the session already has a result for this tool call id.
   */
  async save(ownerUserId: string, input: NewToolResult): Promise<ToolResult> {
    return this.context.db.transaction().execute(async (transaction) => {
      const session = await transaction
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', input.sessionId)
        .where('owner_user_id', '=', ownerUserId)
        .executeTakeFirst();
      if (session === undefined) throw notFound('session');
      const messageId = input.messageId ?? null;
      if (messageId !== null) {
        const message = await transaction
          .selectFrom('messages')
          .select('id')
          .where('id', '=', messageId)
          .where('session_id', '=', input.sessionId)
          .executeTakeFirst();
        if (message === undefined) throw notFound('message');
      }
      const now = this.context.clock();
      try {
        const row = await transaction
          .insertInto('tool_results')
          .values({
            id: newId(now),
            session_id: input.sessionId,
            message_id: messageId,
            tool_call_id: input.toolCallId,
            content: input.content,
            char_count: input.content.length,
            created_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toToolResult(row);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new StorageError(
            StorageErrorCode.Conflict,
            'tool-result',
            'This tool call already has a stored result',
            { cause: error },
          );
        }
        throw error;
      }
    });
  }

  /** The full result of one tool call in the owner's session. */
  async getForOwner(ownerUserId: string, sessionId: string, toolCallId: string): Promise<ToolResult> {
    const row = await this.context.db
      .selectFrom('tool_results')
      .innerJoin('sessions', 'sessions.id', 'tool_results.session_id')
      .selectAll('tool_results')
      .where('tool_results.session_id', '=', sessionId)
      .where('tool_results.tool_call_id', '=', toolCallId)
      .where('sessions.owner_user_id', '=', ownerUserId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('tool-result');
    return toToolResult(row);
  }

  /** Summaries (no content) of the owner's session's results, oldest first. */
  async listForOwner(
    ownerUserId: string,
    sessionId: string,
    page: PageRequest = {},
  ): Promise<Page<ToolResultSummary>> {
    const session = await this.context.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .executeTakeFirst();
    if (session === undefined) throw notFound('session');
    return this.listSummaries(sessionId, page);
  }

  /** Any session's full result of one tool call, for audited admin/viewer reads. */
  async getForAdmin(sessionId: string, toolCallId: string): Promise<ToolResult> {
    const row = await this.context.db
      .selectFrom('tool_results')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('tool_call_id', '=', toolCallId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('tool-result');
    return toToolResult(row);
  }

  /** Any session's result summaries, for audited admin/viewer reads. */
  async listForAdmin(sessionId: string, page: PageRequest = {}): Promise<Page<ToolResultSummary>> {
    const session = await this.context.db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (session === undefined) throw notFound('session');
    return this.listSummaries(sessionId, page);
  }

  private async listSummaries(sessionId: string, page: PageRequest): Promise<Page<ToolResultSummary>> {
    const limit = clampPageSize(page.limit);
    const after = decodeTimeCursor(page.cursor);
    let query = this.context.db
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
}
