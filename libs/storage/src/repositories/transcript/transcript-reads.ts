import type { Message } from '../../models/message';
import type { ToolResult, ToolResultSummary } from '../../models/tool-result';
import type { Page, PageRequest } from '../../pagination';
import type { RepositoryContext } from '../repository-context';
import {
  completeHistoryBefore,
  fillMissingTokenCounts,
  getMessage,
  listMessages,
  type HistoryMessage,
  type HistoryPageRequest,
  type TokenCountFill,
} from './message-reads';
import { searchMessages, type MessageSearchFilters, type MessageSearchHit } from './message-search';
import { adminAccess, ownerAccess } from './owner-scope';
import { getToolResult, listToolResults } from './tool-result-reads';

/**
 * Reads of the transcript: its pages, one message, the history a turn sends the model, the full
 * tool results, and the search. Owner methods filter on the session's owner in the same statement,
 * so a foreign session behaves exactly like a missing one; admin methods (audited by the API) read
 * any session. Writes are {@link TurnStore}'s.
 */
export class TranscriptReads {
  constructor(private readonly context: RepositoryContext) {}

  /** The owner's transcript in `seq` order, one page; `NotFound` when the session is not the owner's. */
  listMessagesForOwner(
    ownerUserId: string,
    sessionId: string,
    page: PageRequest = {},
  ): Promise<Page<Message>> {
    return listMessages(this.context.db, ownerAccess(ownerUserId), sessionId, page);
  }

  /** Any session's transcript, one page, for audited admin/viewer reads. */
  listMessagesForAdmin(sessionId: string, page: PageRequest = {}): Promise<Page<Message>> {
    return listMessages(this.context.db, adminAccess, sessionId, page);
  }

  /** One message of the owner's session. */
  getMessageForOwner(ownerUserId: string, sessionId: string, messageId: string): Promise<Message> {
    return getMessage(this.context.db, ownerAccess(ownerUserId), sessionId, messageId);
  }

  /**
   * The owner's complete messages before `beforeSeq`, newest first, at most `limit`: a turn pages
   * backwards until its history budget is spent. Empty for a session that is not the owner's.
   */
  completeHistoryBefore(
    ownerUserId: string,
    sessionId: string,
    page: HistoryPageRequest,
  ): Promise<HistoryMessage[]> {
    return completeHistoryBefore(this.context.db, ownerAccess(ownerUserId), sessionId, page);
  }

  /**
   * Records token counts a reader computed for messages stored without one (the lazy backfill of
   * migration 0009). Only fills missing counts, only in the owner's session.
   */
  fillMissingTokenCounts(
    ownerUserId: string,
    sessionId: string,
    counts: readonly TokenCountFill[],
  ): Promise<void> {
    return fillMissingTokenCounts(this.context.db, ownerAccess(ownerUserId), sessionId, counts);
  }

  /** The full result of one tool call in the owner's session. */
  getToolResultForOwner(ownerUserId: string, sessionId: string, toolCallId: string): Promise<ToolResult> {
    return getToolResult(this.context.db, ownerAccess(ownerUserId), sessionId, toolCallId);
  }

  /** Summaries (no content) of the owner's session's tool results, oldest first. */
  listToolResultsForOwner(
    ownerUserId: string,
    sessionId: string,
    page: PageRequest = {},
  ): Promise<Page<ToolResultSummary>> {
    return listToolResults(this.context.db, ownerAccess(ownerUserId), sessionId, page);
  }

  /** Any session's full result of one tool call, for audited admin/viewer reads. */
  getToolResultForAdmin(sessionId: string, toolCallId: string): Promise<ToolResult> {
    return getToolResult(this.context.db, adminAccess, sessionId, toolCallId);
  }

  /** Any session's tool result summaries, for audited admin/viewer reads. */
  listToolResultsForAdmin(sessionId: string, page: PageRequest = {}): Promise<Page<ToolResultSummary>> {
    return listToolResults(this.context.db, adminAccess, sessionId, page);
  }

  /**
   * Messages of every user containing every word of `query` (the last as a prefix), narrowed by
   * `filters`, newest first (audited admin/viewer reads); a query of no words finds nothing.
   */
  searchMessages(
    query: string,
    page: PageRequest = {},
    filters: MessageSearchFilters = {},
  ): Promise<Page<MessageSearchHit>> {
    return searchMessages(this.context, query, page, filters);
  }
}
