import type { UserJson } from '@agentdesk/api-contract';
import type { User } from '@agentdesk/storage';

export function toUserJson(user: User): UserJson {
  return {
    id: user.id,
    portalId: user.portalId,
    externalId: user.externalId,
    displayName: user.displayName,
    createdAt: user.createdAt.toISOString(),
  };
}
