import type { ApiKeyJson } from '@agentdesk/api-contract';
import type { AuditedChange } from '../shared/audit/audited-change';

/**
 * What creating or revoking a key changed, for its audit record: the key, its holder, and what
 * makes it matter (an admin key is the one to look for) — never its secret.
 */
export function apiKeyChange(key: ApiKeyJson): AuditedChange {
  return {
    target: { kind: 'api-key', id: key.id },
    targetUserId: key.ownerUserId,
    details: { role: key.role, prefix: key.prefix, label: key.label, portalId: key.portalId },
  };
}
