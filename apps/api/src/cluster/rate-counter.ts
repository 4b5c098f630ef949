/** The state of one rate-limit bucket right after a hit. */
export interface RateCount {
  /** Hits in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the window ends and the bucket starts again from zero. */
  readonly resetInMs: number;
}

/**
 * Counts hits per bucket in fixed windows: the first hit opens a window of `windowMs`, later hits
 * in it add to its count, the first hit after it opens a new one (the semantics
 * @fastify/rate-limit had here before, so limits behave as they did).
 */
export interface RateCounter {
  /** Where the counts live, for the start-up log line. */
  readonly description: string;
  hit(bucket: string, windowMs: number): Promise<RateCount>;
}
