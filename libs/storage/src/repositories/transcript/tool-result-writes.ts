import { newId } from '../../ids';
import { toToolResult, type ToolResult } from '../../models/tool-result';
import { isUniqueViolation, notFound, StorageError, StorageErrorCode } from '../../storage-error';
import type { RepositoryContext } from '../repository-context';
import { assertSessionWithin, ownerAccess } from './owner-scope';

/** A full tool result to keep. */
export interface NewToolResult {
  readonly sessionId: string;
  /** The message the result belongs to; must be in the same session. */
  readonly messageId?: string | null;
  readonly toolCallId: string;
  readonly content: string;
}

/**
 * Keeps a tool's full output (the model may have seen a truncated copy; the console shows the
 * whole). `NotFound` when the session (or the message) is not the owner's; `Conflict` when the
 * session already has a result for this tool call id.
 */
export async function keepToolResult(
  context: RepositoryContext,
  ownerUserId: string,
  input: NewToolResult,
): Promise<ToolResult> {
  return context.db.transaction().execute(async (transaction) => {
    await assertSessionWithin(transaction, ownerAccess(ownerUserId), input.sessionId);
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
    const now = context.clock();
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
