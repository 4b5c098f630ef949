/**
 * How many records of refused credentials (failed sign-ins) one client address may cause per
 * window. The failure limit counts per (address, key id), so a guesser naming a new random key id
 * each time is never throttled: without this budget each guess would add a row to the audit log.
 * Past the budget the attempts are counted in a metric, not recorded; the first ones of every
 * window still are, so a flood shows in the log. Kept in this process (each replica has its own):
 * a bound, not an exact count. Fixed windows, forgotten whole at each turn, so memory stays at the
 * addresses of one window.
 */
export class FailedAttemptBudget {
  private windowStartedAt = Number.NEGATIVE_INFINITY;
  private readonly used = new Map<string, number>();

  constructor(
    private readonly perWindow: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one record from `address`'s budget; false when this window's is spent. */
  take(address: string): boolean {
    const now = this.now();
    if (now - this.windowStartedAt >= this.windowMs) {
      this.used.clear();
      this.windowStartedAt = now;
    }
    const used = this.used.get(address) ?? 0;
    if (used >= this.perWindow) return false;
    this.used.set(address, used + 1);
    return true;
  }
}
