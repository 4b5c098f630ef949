import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { MemoryRateCounter } from './memory-rate-counter';
import type { RateCount, RateCounter } from './rate-counter';
import type { RedisAvailability } from './redis-availability';

/**
 * One round trip, atomic: INCR, and PEXPIRE when this hit opened the window (or the key somehow
 * has no expiry, which would otherwise count forever). Returns the count and the window's PTTL.
 */
const hitScript = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHit = Redis & {
  agentdeskRateHit(key: string, windowMs: number): Promise<[number, number]>;
};

/** How often a Redis failure is logged while it lasts (every request would flood the log). */
const FAILURE_LOG_INTERVAL_MS = 10_000;

/**
 * Counters shared by every replica through Redis, under `<prefix>:rate:<bucket>`.
 *
 * Redis lost while running, or silent past the deadline (`RedisAvailability`): the hit is counted
 * in this process's memory instead — at once while Redis is known to be unavailable, so a frozen
 * Redis costs one request the deadline, not every request — and a warning is logged (at most every
 * 10 s). Limiting then fails *open to per-replica limits* — each replica
 * enforces the full limit on its own, as without Redis — rather than closed: refusing every request
 * because a counter store is down would turn a Redis outage into an API outage, while
 * authentication (the database) still protects every route.
 */
export class RedisRateCounter implements RateCounter {
  readonly description: string;
  private lastFailureLoggedAt = 0;

  constructor(
    private readonly availability: RedisAvailability,
    private readonly keyPrefix: string,
    location: string,
    private readonly fallback: MemoryRateCounter,
    private readonly logger: Logger,
  ) {
    this.description = `shared through Redis at ${location} (keys ${keyPrefix}:rate:*)`;
    availability.client.defineCommand('agentdeskRateHit', { numberOfKeys: 1, lua: hitScript });
  }

  async hit(bucket: string, windowMs: number): Promise<RateCount> {
    try {
      const [count, resetInMs] = await this.availability.call((redis) =>
        (redis as RedisWithHit).agentdeskRateHit(`${this.keyPrefix}:rate:${bucket}`, windowMs),
      );
      return { count, resetInMs };
    } catch (error) {
      this.logFailure(error);
      return this.fallback.hitNow(bucket, windowMs);
    }
  }

  private logFailure(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLoggedAt = now;
    this.logger.warn(
      { err: error },
      'rate limits: Redis is unavailable; counting in this process only until it is back',
    );
  }
}
