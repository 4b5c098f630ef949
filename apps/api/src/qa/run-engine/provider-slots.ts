/**
 * Bounded concurrency by key (a run and a provider): at most `limit` holders per key, the rest
 * wait in arrival order. A waiter whose signal aborts leaves the line without a slot.
 */
export class ProviderSlots {
  private readonly lines = new Map<string, { held: number; waiting: (() => void)[] }>();

  /** Resolves with a release function once a slot of `key` is free; rejects when `signal` aborts first. */
  async acquire(key: string, limit: number, signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    const line = this.lines.get(key) ?? { held: 0, waiting: [] };
    this.lines.set(key, line);
    if (line.held >= limit) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          line.waiting.splice(line.waiting.indexOf(admit), 1);
          this.forgetIfIdle(key, line);
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        const admit = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        line.waiting.push(admit);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    } else {
      line.held += 1;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = line.waiting.shift();
      // The slot passes straight to the next waiter: `held` stays the same.
      if (next !== undefined) next();
      else {
        line.held -= 1;
        this.forgetIfIdle(key, line);
      }
    };
  }

  /** Slots held now (tests). */
  held(key: string): number {
    return this.lines.get(key)?.held ?? 0;
  }

  private forgetIfIdle(key: string, line: { held: number; waiting: unknown[] }): void {
    if (line.held === 0 && line.waiting.length === 0) this.lines.delete(key);
  }
}
