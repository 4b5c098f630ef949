import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { generateApiKey } from '../core/api-key-format';
import { auditActions } from '../shared/audit/audit-actions';
import { listingFilter } from '../shared/audit/audit-context';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { KeyRevocations } from '../cluster/key-revocations';
import { REPOSITORIES } from '../core/tokens';
import { listSortOf } from '../http/list-sort';
import { defaultApiKeySort } from '@agentdesk/api-contract';
import { findOrCreateLocalUser } from '../auth/local-user';
import type { Page, Repositories } from '@agentdesk/storage';
import type { createApiKeyBody, listApiKeysQuery } from './api-key-inputs';
import { toApiKeyJson, type ApiKeyJson, type CreatedApiKeyJson } from './api-key-json';

/** Creating, listing and revoking API keys (admin only). */
@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
    @Inject(KeyRevocations) private readonly revocations: KeyRevocations,
  ) {}

  async create(body: z.output<typeof createApiKeyBody>): Promise<CreatedApiKeyJson> {
    const generated = generateApiKey();
    const common = {
      id: generated.keyId,
      prefix: generated.visiblePrefix,
      secretHash: generated.secretHash,
      label: body.label,
    };
    if (body.role === 'portal') {
      const stored = await this.repositories.apiKeys.create({
        ...common,
        role: 'portal',
        portalId: body.portalId,
        trustClientUserId: body.trustClientUserId === true,
      });
      return { apiKey: toApiKeyJson(stored), key: generated.key };
    }
    const owner =
      body.userId !== undefined
        ? await this.repositories.users.getById(body.userId)
        : await findOrCreateLocalUser(this.repositories, body.externalId ?? '', body.displayName ?? null);
    const stored = await this.repositories.apiKeys.create({
      ...common,
      role: body.role,
      ownerUserId: owner.id,
      portalId: owner.portalId,
    });
    return { apiKey: toApiKeyJson(stored), key: generated.key };
  }

  /** One page of keys; their labels and owners name users, so listing them is audited. */
  async list(context: AuditContext, query: z.output<typeof listApiKeysQuery>): Promise<Page<ApiKeyJson>> {
    const page = await this.repositories.apiKeys.list(
      {
        includeRevoked: query.includeRevoked === true,
        ...(query.ownerUserId === undefined ? {} : { ownerUserId: query.ownerUserId }),
      },
      { limit: query.limit, cursor: query.cursor ?? null },
      listSortOf(query, defaultApiKeySort),
    );
    await this.audit.recordListing(context, auditActions.apiKeysList, {
      filter: listingFilter(query),
      count: page.items.length,
      ...(query.ownerUserId === undefined ? {} : { targetUserId: query.ownerUserId }),
    });
    // The owners' names: one read for the page.
    const names = await this.repositories.people.namesOf(page.items.map((key) => key.ownerUserId));
    return { items: page.items.map((key) => toApiKeyJson(key, names)), nextCursor: page.nextCursor };
  }

  /**
   * Revokes a key: the next request made with it gets 401 on this replica, and on every other one
   * within a second (the revocation is broadcast to their caches of verified keys). The console
   * sessions signed in with it end too (they stopped working with the revocation already: a
   * session's lookup refuses a revoked key; this records why they ended).
   */
  async revoke(apiKeyId: string): Promise<ApiKeyJson> {
    const revoked = await this.repositories.apiKeys.revoke(apiKeyId);
    await this.revocations.announce(revoked.id);
    await this.repositories.consoleSessions.endAllOfApiKey(revoked.id, 'key-revoked');
    return toApiKeyJson(revoked);
  }
}
