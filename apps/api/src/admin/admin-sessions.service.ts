import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { auditActions } from '../shared/audit/audit-actions';
import { listingFilter } from '../shared/audit/audit-context';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { REPOSITORIES } from '../core/tokens';
import {
  DEFAULT_TOOL_RESULT_PAGE_CHARACTERS,
  type MessageJson,
  type SessionJson,
  type ToolResultPageJson,
} from '@agentdesk/api-contract';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { toMessageJson, toSessionJson } from '../shared/sessions/session-json';
import type { Page, Repositories } from '@agentdesk/storage';
import type {
  adminListSessionsAuditedQuery,
  adminReadSessionQuery,
  adminReadToolResultQuery,
} from './admin-inputs';
import { pageOfText } from './tool-result-page';

/** A session with one page of its transcript. */
export interface SessionWithMessages {
  readonly session: SessionJson;
  readonly messages: Page<MessageJson>;
}

/** Cross-user reads for admins and viewers; listing or reading another user's sessions writes an audit record. */
@Injectable()
export class AdminSessionsService {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  async list(
    context: AuditContext,
    query: z.output<typeof adminListSessionsAuditedQuery>,
  ): Promise<Page<SessionJson>> {
    const page = await this.repositories.sessions.listAllSessionsForAdmin(
      {
        ...(query.userId === undefined ? {} : { ownerUserId: query.userId }),
        ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
        ...(query.model === undefined ? {} : { model: query.model }),
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.createdFrom === undefined ? {} : { createdFrom: query.createdFrom }),
        ...(query.createdBefore === undefined ? {} : { createdBefore: query.createdBefore }),
        ...(query.label === undefined ? {} : { labelContains: query.label }),
      },
      { limit: query.limit, cursor: query.cursor ?? null },
    );
    await this.audit.recordListing(context, auditActions.sessionsList, {
      filter: listingFilter(query),
      count: page.items.length,
      ...(query.userId === undefined ? {} : { targetUserId: query.userId }),
    });
    return { items: page.items.map(toSessionJson), nextCursor: page.nextCursor };
  }

  async read(
    context: AuditContext,
    sessionId: string,
    query: z.output<typeof adminReadSessionQuery>,
  ): Promise<SessionWithMessages> {
    const session = await this.repositories.sessions.getForAdmin(sessionId);
    const messages = await this.repositories.transcript.listMessagesForAdmin(sessionId, {
      limit: query.limit,
      cursor: query.cursor ?? null,
    });
    await this.audit.recordRead(context, auditActions.sessionRead, session);
    return {
      session: toSessionJson(session),
      messages: { items: messages.items.map(toMessageJson), nextCursor: messages.nextCursor },
    };
  }

  async readMessages(
    context: AuditContext,
    sessionId: string,
    query: z.output<typeof adminReadSessionQuery>,
  ): Promise<Page<MessageJson>> {
    const session = await this.repositories.sessions.getForAdmin(sessionId);
    const messages = await this.repositories.transcript.listMessagesForAdmin(sessionId, {
      limit: query.limit,
      cursor: query.cursor ?? null,
    });
    await this.audit.recordRead(context, auditActions.sessionMessagesRead, session);
    return { items: messages.items.map(toMessageJson), nextCursor: messages.nextCursor };
  }

  /**
   * A page of the full output of one tool call, as the tool returned it. The session and the tool
   * call are both in the query (`WHERE session_id = ? AND tool_call_id = ?`), so a call id of another
   * session answers 404 like a missing one.
   */
  async readToolResult(
    context: AuditContext,
    sessionId: string,
    toolCallId: string,
    query: z.output<typeof adminReadToolResultQuery>,
  ): Promise<ToolResultPageJson> {
    const session = await this.repositories.sessions.getForAdmin(sessionId);
    const stored = await this.repositories.transcript.getToolResultForAdmin(sessionId, toolCallId);
    const offset = query.offset ?? 0;
    if (offset > stored.content.length)
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        `query parameter offset: must be at most ${stored.content.length} (the length of this tool result)`,
      );
    const page = pageOfText(stored.content, offset, query.limit ?? DEFAULT_TOOL_RESULT_PAGE_CHARACTERS);
    await this.audit.recordRead(context, auditActions.sessionToolResultRead, session);
    return {
      sessionId,
      toolCallId,
      ...page,
      createdAt: stored.createdAt.toISOString(),
    };
  }
}
