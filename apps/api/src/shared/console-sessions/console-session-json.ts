import type { ConsoleSessionJson } from '@agentdesk/api-contract';
import type { ConsoleSession, User } from '@agentdesk/storage';

/** A stored console session as the API returns it; `user` names the person when their row was read. */
export function toConsoleSessionJson(session: ConsoleSession, user: User | undefined): ConsoleSessionJson {
  return {
    id: session.id,
    user:
      user === undefined ? null : { id: user.id, externalId: user.externalId, displayName: user.displayName },
    userId: session.userId,
    wayIn: session.wayIn,
    apiKeyId: session.apiKeyId,
    status: session.status,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    idleExpiresAt: session.idleExpiresAt.toISOString(),
    absoluteExpiresAt: session.absoluteExpiresAt.toISOString(),
    clientAddress: session.clientAddress,
    userAgent: session.userAgent,
    endedAt: session.endedAt === null ? null : session.endedAt.toISOString(),
    endReason: session.endReason,
  };
}
