import type { HistoryMessage } from '@agentdesk/storage';

/** A history message with its stored (raw o200k) token count. */
export interface CountedHistoryMessage {
  readonly message: HistoryMessage;
  readonly rawTokens: number;
}

/** What the last turn of a session read of its history, kept for the next turn. */
export interface CachedHistory {
  /**
   * Every message of the session up to this `seq` was final when it was read (a turn starts only
   * once the previous one has ended, and messages never change once final), so the next turn
   * needs to read only what came after it.
   */
  readonly throughSeq: number;
  /** The complete messages the budget needed, newest first (with the one that overflowed it, if any). */
  readonly newestFirst: readonly CountedHistoryMessage[];
  /** True when `newestFirst` goes back to the session's first message. */
  readonly reachedStart: boolean;
  /** The budget it was cut for (in the model's measure). */
  readonly budgetTokens: number;
  readonly safetyFactor: number;
}

interface Entry {
  readonly history: CachedHistory;
  readonly tokens: number;
}

/**
 * The history each session's last turn read, per process, least recently used out, bounded by
 * the tokens it holds. A turn then reads only the messages written since (its previous turn's,
 * usually two rows) instead of walking the budget's worth of transcript again, so a turn's
 * database work does not grow with the session. Entries are keyed by owner and session and the
 * rows read after them are owner-scoped, so nothing crosses owners; another replica's turns are
 * picked up by that read too.
 */
export class TurnHistoryCache {
  private readonly entries = new Map<string, Entry>();
  private heldTokens = 0;

  /** `maxTokens` 0 turns the cache off. */
  constructor(private readonly maxTokens: number) {}

  /** Raw tokens held now (for tests and metrics). */
  get tokens(): number {
    return this.heldTokens;
  }

  get(ownerUserId: string, sessionId: string): CachedHistory | undefined {
    const key = keyOf(ownerUserId, sessionId);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.history;
  }

  set(ownerUserId: string, sessionId: string, history: CachedHistory): void {
    const key = keyOf(ownerUserId, sessionId);
    this.remove(key);
    const tokens = history.newestFirst.reduce((sum, counted) => sum + counted.rawTokens, 0);
    if (tokens > this.maxTokens) return;
    // Later turns get these same objects (content parts, tool calls): frozen, a caller that changed
    // one would fail loudly instead of changing another turn's history.
    for (const counted of history.newestFirst) freezeDeep(counted.message);
    while (this.heldTokens + tokens > this.maxTokens) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.remove(oldest.value);
    }
    this.entries.set(key, { history, tokens });
    this.heldTokens += tokens;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.heldTokens -= entry.tokens;
  }
}

function freezeDeep(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) freezeDeep(child);
}

const keyOf = (ownerUserId: string, sessionId: string): string => `${ownerUserId}\u0000${sessionId}`;
