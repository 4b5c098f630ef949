import { resolveEffectiveUserId } from '@agentdesk/authz';
import type { Repositories } from '@agentdesk/storage';
import type { MeteredEndUser } from './metered-call';

/** Enough to keep the repeat end users of a busy portal from costing a query per batch. */
const MAX_CACHED_PORTAL_USERS = 10_000;

/**
 * Turns the end user a call recorded into a stored `users.id`, at write time. A portal end user is
 * looked up (and created on first use, as any write for them does) once, then cached. A name the
 * request could not have used (an untrusted portal naming someone, an invalid id) meters the call
 * for nobody rather than failing the batch.
 */
export class EndUserResolver {
  private readonly portalUsers = new Map<string, string>();

  constructor(
    private readonly users: Repositories['users'],
    private readonly devUserId: string | null,
  ) {}

  async resolve(endUser: MeteredEndUser | null): Promise<string | null> {
    if (endUser === null) return null;
    if (endUser.kind === 'user') return endUser.userId;
    let effective;
    try {
      effective = resolveEffectiveUserId(endUser.principal, endUser.namedUserId);
    } catch {
      return null;
    }
    switch (effective.kind) {
      case 'user':
        return effective.userId;
      case 'anonymous':
        return this.devUserId;
      case 'none':
        return null;
      case 'portal-user':
        return this.portalUser(effective.portalId, effective.externalUserId);
    }
  }

  private async portalUser(portalId: string, externalUserId: string): Promise<string> {
    const cacheKey = JSON.stringify([portalId, externalUserId]);
    const cached = this.portalUsers.get(cacheKey);
    if (cached !== undefined) return cached;
    const user = await this.users.ensurePortalUser(portalId, externalUserId);
    if (this.portalUsers.size >= MAX_CACHED_PORTAL_USERS) this.portalUsers.clear();
    this.portalUsers.set(cacheKey, user.id);
    return user.id;
  }
}
