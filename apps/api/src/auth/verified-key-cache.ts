import type { Principal } from '@agentdesk/authz';

interface CachedKey {
  readonly apiKeyId: string;
  readonly principal: Principal;
  readonly expiresAt: number;
}

/**
 * Keys verified recently (hash compared, unrevoked row read), so a busy key is not re-read from
 * the database on every request. Entries are keyed by the key id *and* the SHA-256 of the whole
 * presented key — a wrong secret for a cached id never matches — and live `ttlMs` at most; past
 * `maxEntries` the least recently used leave first. Only successes are cached: a failed key is
 * always looked up again (and counted by the failure limit).
 *
 * Staleness is bounded twice: `forget(id)` on a revocation (this replica at once, the others
 * through the broadcast), and the TTL for anything a broadcast could not reach.
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, CachedKey>();
  private revocationsSeen = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /**
   * Read before looking a key up in the database and passed to `remember`: a revocation that
   * arrives while the lookup is in flight must not be undone by caching the row read before it.
   */
  get epoch(): number {
    return this.revocationsSeen;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The principal of a key verified less than the TTL ago, if any. */
  get(apiKeyId: string, secretHash: string): Principal | undefined {
    const cacheKey = `${apiKeyId}:${secretHash}`;
    const entry = this.entries.get(cacheKey);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(cacheKey);
      return undefined;
    }
    // Re-inserted: the Map's order is the order of last use, oldest first.
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, entry);
    return entry.principal;
  }

  remember(apiKeyId: string, secretHash: string, principal: Principal, epoch: number): void {
    if (!this.enabled || epoch !== this.revocationsSeen) return;
    const cacheKey = `${apiKeyId}:${secretHash}`;
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, { apiKeyId, principal, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const leastRecentlyUsed = this.entries.keys().next().value;
      if (leastRecentlyUsed === undefined) break;
      this.entries.delete(leastRecentlyUsed);
    }
  }

  /** Drops every entry of this key (revoked); `undefined` drops everything (revocations may have been missed). */
  forget(apiKeyId: string | undefined): void {
    this.revocationsSeen += 1;
    if (apiKeyId === undefined) {
      this.entries.clear();
      return;
    }
    // Revocations are rare and the cache is bounded: a scan costs less than a second index on every hit.
    for (const [cacheKey, entry] of this.entries) {
      if (entry.apiKeyId === apiKeyId) this.entries.delete(cacheKey);
    }
  }
}
