/**
 * A least-recently-used map from text to a value, bounded both by entry count and by the total
 * length of the keys it keeps alive (a cache of 10 MB tool results must not pin gigabytes).
 *
 * Lookups use the string itself as the key: V8 compares an identical string object by pointer,
 * so an unchanged message's content is found in O(1).
 */
export class BoundedTextCache<Value> {
  private readonly entries = new Map<string, Value>();
  private keptChars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  /** Number of cached texts. */
  get size(): number {
    return this.entries.size;
  }

  get(text: string): Value | undefined {
    const value = this.entries.get(text);
    if (value === undefined) return undefined;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(text);
    this.entries.set(text, value);
    return value;
  }

  set(text: string, value: Value): void {
    if (text.length > this.maxChars || this.maxEntries <= 0) return;
    if (this.entries.delete(text)) this.keptChars -= text.length;
    this.entries.set(text, value);
    this.keptChars += text.length;
    while (this.entries.size > this.maxEntries || this.keptChars > this.maxChars) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
      this.keptChars -= oldest.value.length;
    }
  }

  clear(): void {
    this.entries.clear();
    this.keptChars = 0;
  }
}
