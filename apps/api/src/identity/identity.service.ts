import { roleScopes, type Principal } from '@agentdesk/authz';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessContext } from '../core/access-context';
import { ACCESS_CONTEXT, REPOSITORIES } from '../core/tokens';
import { ApiError, ApiErrorCode, UNAUTHENTICATED_MESSAGE } from '../errors/api-error';
import type { ApiKey, Repositories, User } from '@agentdesk/storage';
import type { IdentityJson } from '@agentdesk/api-contract';

/** Describes the calling principal from its stored key and user. */
@Injectable()
export class IdentityService {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(ACCESS_CONTEXT) private readonly access: AccessContext,
  ) {}

  async describe(principal: Principal): Promise<IdentityJson> {
    const apiKey = principal.apiKeyId === null ? undefined : await this.activeKey(principal.apiKeyId);
    const userId = principal.kind === 'anonymous' ? this.access.devUserId : this.userIdOf(principal);
    const user = userId === null ? undefined : await this.repositories.users.getById(userId);
    return {
      kind: principal.kind,
      role: principal.role,
      scopes: [...roleScopes[principal.role]],
      user: user === undefined ? null : toIdentityUser(user),
      portal:
        principal.portalId === null
          ? null
          : { id: principal.portalId, trustClientUserId: principal.trustClientUserId },
      apiKey:
        apiKey === undefined
          ? null
          : {
              id: apiKey.id,
              prefix: apiKey.prefix,
              label: apiKey.label,
              createdAt: apiKey.createdAt.toISOString(),
            },
    };
  }

  private userIdOf(principal: Principal): string | null {
    return principal.kind === 'user' ? principal.id : null;
  }

  // Revoked between authentication and this read: answer like any other revoked key.
  private async activeKey(apiKeyId: string): Promise<ApiKey> {
    const key = await this.repositories.apiKeys.getById(apiKeyId);
    if (key.revokedAt !== null) throw new ApiError(ApiErrorCode.Unauthenticated, UNAUTHENTICATED_MESSAGE);
    return key;
  }
}

function toIdentityUser(user: User): NonNullable<IdentityJson['user']> {
  return {
    id: user.id,
    externalId: user.externalId,
    displayName: user.displayName,
    portalId: user.portalId,
  };
}
