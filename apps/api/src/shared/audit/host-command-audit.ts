import { userInfo } from 'node:os';
import type { ApiKey, Repositories } from '@agentdesk/storage';
import { auditActions, type AuditAction } from './audit-actions';
import type { AuditedChange } from './audited-change';

/** The actor id of a change made by a command run on the server (`actorKind: host`). */
export const HOST_ACTOR = 'host';

/**
 * Records a change made on the host, not through the API: a host command (`npm run admin-key`,
 * way in `host-command`) or the server's own start (the first admin key, `AGENTDESK_ADMIN_KEY`;
 * way in `start-up`). No principal: the actor is the host, with the operating-system account that
 * ran it (whoever can write the database is trusted; the log still says who did).
 */
export async function recordHostChange(
  repositories: Repositories,
  action: AuditAction,
  change: AuditedChange,
  wayIn: 'host-command' | 'start-up' = 'host-command',
): Promise<void> {
  await repositories.audit.append({
    actorPrincipalId: HOST_ACTOR,
    actorKind: 'host',
    actorApiKeyId: null,
    wayIn,
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

/** The admin key a start stored (the first start's, or `AGENTDESK_ADMIN_KEY`'s when new), in the audit log. */
export async function recordAdminKeyStoredAtStart(
  repositories: Repositories,
  key: ApiKey,
  source: 'first-start' | 'environment',
): Promise<void> {
  await recordHostChange(
    repositories,
    auditActions.apiKeyCreate,
    {
      target: { kind: 'api-key', id: key.id },
      targetUserId: key.ownerUserId,
      details: { role: key.role, prefix: key.prefix, label: key.label, source },
    },
    'start-up',
  );
}
