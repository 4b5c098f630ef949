import type { RateCount, RateCounter } from './rate-counter';

interface Window {
  count: number;
  readonly endsAt: number;
}

/** Buckets kept at most; the oldest window is dropped first (as an LRU of windows would). */
const DEFAULT_MAX_BUCKETS = 10_000;

/**
 * Counters in this process's memory: every replica counts on its own. Bounded: past `maxBuckets`
 * the window opened longest ago is forgotten, so a flood of distinct buckets (random keys from
 * many addresses) cannot grow memory without limit.
 */
export class MemoryRateCounter implements RateCounter {
  readonly description = 'this process only';
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly maxBuckets = DEFAULT_MAX_BUCKETS,
    private readonly now: () => number = Date.now,
  ) {}

  hit(bucket: string, windowMs: number): Promise<RateCount> {
    return Promise.resolve(this.hitNow(bucket, windowMs));
  }

  /** The same count, synchronously (the Redis counter falls back to it while Redis is away). */
  hitNow(bucket: string, windowMs: number): RateCount {
    const now = this.now();
    let window = this.windows.get(bucket);
    if (window === undefined || window.endsAt <= now) {
      // Re-inserted so the Map's order stays the order windows were opened in.
      this.windows.delete(bucket);
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(bucket, window);
      if (this.windows.size > this.maxBuckets) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.endsAt - now };
  }
}
