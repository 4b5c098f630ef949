import type { EffectiveUser } from '@agentdesk/authz';
import type { Repositories } from '@agentdesk/storage';

/** Enough to keep the repeat end users of a busy portal from costing a query per batch. */
const MAX_CACHED_PORTAL_USERS = 10_000;

/**
 * Turns the end user a request resolved into a stored `users.id`, at write time. The request has
 * already checked the name (`NamedEndUser()`); a portal end user is looked up here (and created on
 * first use, as any write for them does) once, then cached.
 */
export class EndUserResolver {
  private readonly portalUsers = new Map<string, string>();

  constructor(
    private readonly users: Repositories['users'],
    private readonly devUserId: string | null,
  ) {}

  /** `displayName`: the name the portal sent with the call, stored (or renamed to) as other routes do. */
  async resolve(endUser: EffectiveUser, displayName?: string): Promise<string | null> {
    switch (endUser.kind) {
      case 'user':
        return endUser.userId;
      case 'anonymous':
        return this.devUserId;
      case 'none':
        return null;
      case 'portal-user':
        return this.portalUser(endUser.portalId, endUser.externalUserId, displayName);
    }
  }

  private async portalUser(portalId: string, externalUserId: string, displayName?: string): Promise<string> {
    // With the name: a call under a new name writes it once (a rename), later ones hit the cache.
    const cacheKey = JSON.stringify([portalId, externalUserId, displayName ?? null]);
    const cached = this.portalUsers.get(cacheKey);
    if (cached !== undefined) return cached;
    const user = await this.users.ensurePortalUser(portalId, externalUserId, displayName);
    if (this.portalUsers.size >= MAX_CACHED_PORTAL_USERS) this.portalUsers.clear();
    this.portalUsers.set(cacheKey, user.id);
    return user.id;
  }
}
