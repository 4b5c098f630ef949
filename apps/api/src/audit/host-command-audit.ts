import { userInfo } from 'node:os';
import type { Repositories } from '@agentdesk/storage';
import type { AuditAction } from './audit-actions';
import type { AuditedChange } from './audited-change';

/** The actor id of a change made by a command run on the server (`actorKind: host`). */
export const HOST_ACTOR = 'host';

/**
 * Records a change a host command made (`npm run admin-key`): no API call, so no principal — the
 * actor is the host, the way in `host-command`, with the operating-system account that ran it
 * (whoever can write the database is trusted; the log still says who did).
 */
export async function recordHostChange(
  repositories: Repositories,
  action: AuditAction,
  change: AuditedChange,
): Promise<void> {
  await repositories.audit.append({
    actorPrincipalId: HOST_ACTOR,
    actorKind: 'host',
    actorApiKeyId: null,
    wayIn: 'host-command',
    action,
    outcome: 'succeeded',
    target: change.target ?? null,
    targetUserId: change.targetUserId ?? null,
    sessionId: change.sessionId ?? null,
    details: { ...change.details, hostUser: hostUserName() },
  });
}

function hostUserName(): string | null {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for the uid (some containers): the record still says it came from the host.
    return null;
  }
}
