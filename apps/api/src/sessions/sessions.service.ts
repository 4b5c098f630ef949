import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { ownerUserIdOrNotFound, type EffectiveOwner } from '../auth/effective-owner';
import { EffectiveUsers } from '../auth/effective-users';
import { REPOSITORIES } from '../core/tokens';
import { SandboxRuntime } from '../shared/sandbox-runtime/sandbox-runtime';
import type { Page, Repositories } from '@agentdesk/storage';
import type {
  closeSessionBody,
  createSessionBody,
  listMessagesQuery,
  listSessionsQuery,
  updateSessionBody,
} from './session-inputs';
import type { MessageJson, SessionJson } from '@agentdesk/api-contract';
import { toMessageJson, toSessionJson } from '../shared/sessions/session-json';

/**
 * The effective user's own sessions (the owner is resolved once per request by `@Owner()`). Every
 * repository call takes the effective owner, so ownership is decided inside the query: someone else's session is "not found", like a missing one.
 */
@Injectable()
export class SessionsService {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(SandboxRuntime) private readonly sandbox: SandboxRuntime,
    @Inject(EffectiveUsers) private readonly effectiveUsers: EffectiveUsers,
  ) {}

  async create(owner: EffectiveOwner, body: z.output<typeof createSessionBody>): Promise<SessionJson> {
    const ownerUserId = ownerUserIdOrNotFound(owner, 'Session');
    const session = await this.repositories.sessions.create({
      ownerUserId,
      ...(body.label === undefined ? {} : { label: body.label }),
      ...(body.model === undefined ? {} : { model: body.model }),
      ...(body.systemPrompt === undefined ? {} : { systemPrompt: body.systemPrompt }),
      ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
    });
    return toSessionJson(session);
  }

  async list(owner: EffectiveOwner, query: z.output<typeof listSessionsQuery>): Promise<Page<SessionJson>> {
    const { ownerUserId } = owner;
    // A portal end user never seen before owns nothing yet.
    if (ownerUserId === null) return { items: [], nextCursor: null };
    const page = await this.repositories.sessions.listForOwner(
      ownerUserId,
      {
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.createdFrom === undefined ? {} : { createdFrom: query.createdFrom }),
        ...(query.createdBefore === undefined ? {} : { createdBefore: query.createdBefore }),
        ...(query.label === undefined ? {} : { labelContains: query.label }),
      },
      { limit: query.limit, cursor: query.cursor ?? null },
    );
    return { items: page.items.map(toSessionJson), nextCursor: page.nextCursor };
  }

  async get(owner: EffectiveOwner, sessionId: string): Promise<SessionJson> {
    const ownerUserId = ownerUserIdOrNotFound(owner, 'Session');
    const session = await this.repositories.sessions.getForOwner(ownerUserId, sessionId);
    this.effectiveUsers.assertCan(
      owner.principal,
      'sessions:read',
      session.ownerUserId,
      ownerUserId,
      'Session',
    );
    return toSessionJson(session);
  }

  async update(
    owner: EffectiveOwner,
    sessionId: string,
    body: z.output<typeof updateSessionBody>,
  ): Promise<SessionJson> {
    const ownerUserId = ownerUserIdOrNotFound(owner, 'Session');
    const session = await this.repositories.sessions.update(ownerUserId, sessionId, {
      ...(body.label === undefined ? {} : { label: body.label }),
      ...(body.model === undefined ? {} : { model: body.model }),
      ...(body.systemPrompt === undefined ? {} : { systemPrompt: body.systemPrompt }),
      ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
    });
    return toSessionJson(session);
  }

  async close(
    owner: EffectiveOwner,
    sessionId: string,
    _body: z.output<typeof closeSessionBody>,
  ): Promise<SessionJson> {
    const ownerUserId = ownerUserIdOrNotFound(owner, 'Session');
    return toSessionJson(await this.repositories.sessions.close(ownerUserId, sessionId));
  }

  async delete(owner: EffectiveOwner, sessionId: string): Promise<void> {
    const ownerUserId = ownerUserIdOrNotFound(owner, 'Session');
    await this.repositories.sessions.delete(ownerUserId, sessionId);
    // Its sandbox goes with it (best-effort: the start-up reconciler removes what this misses).
    await this.sandbox.removeSession(sessionId);
  }

  async listMessages(
    owner: EffectiveOwner,
    sessionId: string,
    query: z.output<typeof listMessagesQuery>,
  ): Promise<Page<MessageJson>> {
    const ownerUserId = ownerUserIdOrNotFound(owner, 'Session');
    const page = await this.repositories.transcript.listMessagesForOwner(ownerUserId, sessionId, {
      limit: query.limit,
      cursor: query.cursor ?? null,
    });
    return { items: page.items.map(toMessageJson), nextCursor: page.nextCursor };
  }
}
