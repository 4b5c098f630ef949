/** How the usage meter batches its writes (`AGENTDESK_USAGE_*`, validated in `app-config.ts`). */
export interface UsageMeterSettings {
  /** Longest a recorded call waits in memory before its batch is written. */
  readonly flushIntervalMs: number;
  /** Rows per multi-row insert; a full batch is written at once, without waiting for the interval. */
  readonly batchSize: number;
  /** Calls kept in memory while the database cannot be written; the oldest are dropped beyond it. */
  readonly maxBufferedEvents: number;
}

export const defaultUsageMeterSettings: UsageMeterSettings = {
  flushIntervalMs: 1_000,
  batchSize: 500,
  maxBufferedEvents: 100_000,
};

/** Longest wait between two write attempts while the database keeps failing. */
export const MAX_RETRY_DELAY_MS = 30_000;
