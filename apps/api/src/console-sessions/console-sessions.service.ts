import type {
  ConsoleSessionJson,
  CreatedConsoleSessionJson,
  EndedConsoleSessionsJson,
} from '@agentdesk/api-contract';
import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { JsonObject, Page, Repositories, User } from '@agentdesk/storage';
import { auditActions } from '../shared/audit/audit-actions';
import type { AuditTargetKind } from '../shared/audit/audited';
import { listingFilter } from '../shared/audit/audit-context';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { generateConsoleSessionToken } from '../auth/console-session-token';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG, REPOSITORIES } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import type { createConsoleSessionBody, listConsoleSessionsQuery } from './console-session-inputs';
import { toConsoleSessionJson } from '../shared/console-sessions/console-session-json';

/**
 * Console sign-ins kept on the server: opening one (sign-in with a key), ending the caller's own
 * (sign-out), and the admin's list, end-one and end-all ("sign out everywhere"). Every change is
 * audited with the caller; the list is audited like the other listings.
 */
@Injectable()
export class ConsoleSessionsService {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CrossUserAudit) private readonly crossUserAudit: CrossUserAudit,
  ) {}

  /**
   * Opens a session for the person whose key called (the console's sign-in, which then forgets the
   * key): the token is in this answer only; the database keeps its hash.
   */
  async signIn(
    context: AuditContext,
    body: z.output<typeof createConsoleSessionBody>,
  ): Promise<CreatedConsoleSessionJson> {
    const principal = context.principal;
    // The scope admits admins and viewers; a session always belongs to a person and the key they typed.
    if (principal.kind !== 'user' || principal.apiKeyId === null)
      throw new ApiError(ApiErrorCode.Forbidden, 'Only a key held by a person opens a console session');
    // With single sign-on, people sign in through their company's provider unless an operator keeps keys open.
    if (this.config.sso !== undefined && !this.config.sso.allowKeySignIn)
      throw new ApiError(
        ApiErrorCode.Forbidden,
        'Console sign-in with a key is off: this console signs in with single sign-on',
      );
    const { token, tokenHash } = generateConsoleSessionToken();
    const session = await this.repositories.consoleSessions.create({
      tokenHash,
      userId: principal.id,
      wayIn: 'api-key',
      apiKeyId: principal.apiKeyId,
      idleTimeoutMs: this.config.consoleSessions.idleTimeoutMs,
      absoluteTimeoutMs: this.config.consoleSessions.absoluteTimeoutMs,
      clientAddress: body.clientAddress ?? null,
      userAgent: body.userAgent ?? null,
    });
    this.describe(context, { kind: 'console-session', id: session.id }, principal.id, {
      consoleSessionId: session.id,
      wayIn: session.wayIn,
    });
    const user = await this.repositories.users.getById(principal.id);
    return { session: toConsoleSessionJson(session, user), token };
  }

  /** Ends the session the request came in with (sign-out): its token is refused from the next request on. */
  async signOut(context: AuditContext, consoleSessionId: string): Promise<void> {
    const ended = await this.repositories.consoleSessions.end(consoleSessionId, 'sign-out');
    this.describe(context, { kind: 'console-session', id: consoleSessionId }, ended.userId, {
      consoleSessionId,
    });
  }

  /** One page of sessions, newest first; audited (they show people's addresses and browsers). */
  async list(
    context: AuditContext,
    query: z.output<typeof listConsoleSessionsQuery>,
  ): Promise<Page<ConsoleSessionJson>> {
    const page = await this.repositories.consoleSessions.list(
      {
        ...(query.userId === undefined ? {} : { userId: query.userId }),
        includeEnded: query.includeEnded === true,
      },
      { limit: query.limit, cursor: query.cursor ?? null },
    );
    const users = await this.usersById([...new Set(page.items.map((session) => session.userId))]);
    await this.crossUserAudit.recordListing(context, auditActions.consoleSessionsList, {
      filter: listingFilter(query),
      count: page.items.length,
      ...(query.userId === undefined ? {} : { targetUserId: query.userId }),
    });
    return {
      items: page.items.map((session) => toConsoleSessionJson(session, users.get(session.userId))),
      nextCursor: page.nextCursor,
    };
  }

  /** Ends one session (an admin's "end"); idempotent, 404 for an unknown id. */
  async end(context: AuditContext, consoleSessionId: string): Promise<ConsoleSessionJson> {
    const ended = await this.repositories.consoleSessions.end(consoleSessionId, 'ended-by-admin');
    this.describe(context, { kind: 'console-session', id: consoleSessionId }, ended.userId, {
      consoleSessionId,
      endReason: ended.endReason,
    });
    return toConsoleSessionJson(ended, (await this.usersById([ended.userId])).get(ended.userId));
  }

  /** Ends every open session of a user ("sign out everywhere"); 404 for an unknown user. */
  async endAllOfUser(context: AuditContext, userId: string): Promise<EndedConsoleSessionsJson> {
    await this.repositories.users.getById(userId);
    const ended = await this.repositories.consoleSessions.endAllOfUser(userId, 'signed-out-everywhere');
    this.describe(context, { kind: 'user', id: userId }, userId, { ended });
    return { ended };
  }

  private async usersById(ids: readonly string[]): Promise<Map<string, User>> {
    if (ids.length === 0) return new Map();
    const users = await this.repositories.users.listForAdmin({ ids }, { limit: ids.length });
    return new Map(users.items.map((user) => [user.id, user]));
  }

  /** What a change did: the audit trail writes it in the record of this `@Audited` route, with its outcome. */
  private describe(
    context: AuditContext,
    target: { readonly kind: AuditTargetKind; readonly id: string },
    targetUserId: string,
    details: JsonObject,
  ): void {
    context.describeChange({ target, targetUserId, details });
  }
}
