/** Limits of one agent turn. */
export interface TurnSettings {
  /** Model calls per turn; the last one is told to answer without tools. */
  readonly maxModelCalls: number;
  /** Tokens the current turn's tool scratchpad may take in each model call. */
  readonly scratchpadBudgetTokens: number;
  /** Tokens a tool result may take in the stored transcript (later turns see this copy; the full one is kept aside). */
  readonly storedToolResultTokens: number;
  /** Lease on the session while a turn runs; renewed before each model call. */
  readonly leaseMs: number;
  /** Summarize older scratchpad entries with the session's model (otherwise they are truncated). */
  readonly summarize: boolean;
}

export const defaultTurnSettings: TurnSettings = {
  maxModelCalls: 8,
  scratchpadBudgetTokens: 8_000,
  storedToolResultTokens: 4_000,
  leaseMs: 10 * 60 * 1000,
  summarize: true,
};
