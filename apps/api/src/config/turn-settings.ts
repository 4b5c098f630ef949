/** Limits of one agent turn. */
export interface TurnSettings {
  /** Model calls per turn; the last one is told to answer without tools. */
  readonly maxModelCalls: number;
  /** Tokens the current turn's tool scratchpad may take in each model call. */
  readonly scratchpadBudgetTokens: number;
  /**
   * Tokens the earlier conversation may take in each model call: the newest messages that fit,
   * starting at a user message. Bounds what a turn reads and sends, so its cost stops growing
   * with the session (and a long session never overflows the model's context).
   */
  readonly historyBudgetTokens: number;
  /**
   * Tokens of history this process keeps between a session's turns (least recently used out; 0 =
   * off): a turn then reads only what was written since the session's previous turn.
   */
  readonly historyCacheTokens: number;
  /** Tokens a tool result may take in the stored transcript (later turns see this copy; the full one is kept aside). */
  readonly storedToolResultTokens: number;
  /**
   * Lease on the session while a turn runs. Short, because it bounds how long a crashed server
   * blocks its sessions; the running turn renews it on a timer (`leaseRenewalIntervalMs`).
   */
  readonly leaseMs: number;
  /** Summarize older scratchpad entries with the session's model (otherwise they are truncated). */
  readonly summarize: boolean;
}

/** Default lease: a crash frees its sessions within 20 s; three renewals fit in each lease. */
export const DEFAULT_TURN_LEASE_MS = 20_000;

export const defaultTurnSettings: TurnSettings = {
  maxModelCalls: 8,
  scratchpadBudgetTokens: 8_000,
  historyBudgetTokens: 8_000,
  // About 4 MB of message text, a few times that in memory: hundreds of busy sessions.
  historyCacheTokens: 1_000_000,
  storedToolResultTokens: 4_000,
  leaseMs: DEFAULT_TURN_LEASE_MS,
  summarize: true,
};

/**
 * How often a running turn renews its lease: a third of it, so two renewals in a row may fail
 * (a slow database, a busy event loop) before the lease lapses.
 */
export function leaseRenewalIntervalMs(leaseMs: number): number {
  return Math.max(1, Math.floor(leaseMs / 3));
}

/**
 * How often each API process looks for expired leases: half a lease, so a crashed turn is
 * marked interrupted at most 1.5 leases after its last renewal even when no new turn comes.
 */
export function leaseSweepIntervalMs(leaseMs: number): number {
  return Math.max(1, Math.floor(leaseMs / 2));
}
