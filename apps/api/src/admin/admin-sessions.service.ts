import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { auditActions } from '../shared/audit/audit-actions';
import { listingFilter } from '../shared/audit/audit-context';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { REPOSITORIES } from '../core/tokens';
import {
  DEFAULT_TOOL_RESULT_PAGE_CHARACTERS,
  defaultSessionSort,
  type MessageJson,
  type SessionJson,
  type ToolResultPageJson,
} from '@agentdesk/api-contract';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { listSortOf } from '../http/list-sort';
import { toMessageJson, toSessionJson } from '../shared/sessions/session-json';
import type { Page, Repositories, Session } from '@agentdesk/storage';
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
    // A person named by name, email or external id: their ids, resolved here (none → an empty page).
    const ownerUserIds =
      query.user === undefined ? undefined : await this.repositories.people.resolve(query.user);
    const page = await this.repositories.sessions.listAllSessionsForAdmin(
      {
        ...(query.userId === undefined ? {} : { ownerUserId: query.userId }),
        ...(ownerUserIds === undefined ? {} : { ownerUserIds }),
        ...(query.portalId === undefined ? {} : { portalId: query.portalId }),
        ...(query.model === undefined ? {} : { model: query.model }),
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.createdFrom === undefined ? {} : { createdFrom: query.createdFrom }),
        ...(query.createdBefore === undefined ? {} : { createdBefore: query.createdBefore }),
        ...(query.label === undefined ? {} : { labelContains: query.label }),
      },
      { limit: query.limit, cursor: query.cursor ?? null },
      listSortOf(query, defaultSessionSort),
    );
    await this.audit.recordListing(context, auditActions.sessionsList, {
      filter: listingFilter(query),
      count: page.items.length,
      ...(query.userId === undefined ? {} : { targetUserId: query.userId }),
    });
    const names = await this.repositories.people.namesOf(page.items.map((session) => session.ownerUserId));
    return {
      items: page.items.map((session) => withOwnerName(toSessionJson(session), names)),
      nextCursor: page.nextCursor,
    };
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
    const names = await this.repositories.people.namesOf([session.ownerUserId]);
    return {
      session: withOwnerName(toSessionJson(session), names),
      messages: { items: messages.items.map(toMessageJson), nextCursor: messages.nextCursor },
    };
  }

  /** The session (404 when there is none), for the live feed's snapshot. */
  sessionForAdmin(sessionId: string): Promise<Session> {
    return this.repositories.sessions.getForAdmin(sessionId);
  }

  /** Following a session live reads its transcript as it is written: audited like a read. */
  async recordLiveRead(context: AuditContext, sessionId: string): Promise<void> {
    const session = await this.repositories.sessions.getForAdmin(sessionId);
    await this.audit.recordRead(context, auditActions.sessionLiveRead, session);
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

/** The session with its owner's display name (from one batched read of the page's owners). */
function withOwnerName(session: SessionJson, names: ReadonlyMap<string, string>): SessionJson {
  return { ...session, ownerName: names.get(session.ownerUserId) ?? null };
}
