/** A clock in milliseconds since the epoch; tests pass their own. */
export type Clock = () => number;

/**
 * A bounded in-memory map whose entries expire at their own time. When full, the oldest entry goes
 * first, so a flood of distinct keys cannot grow the process without limit.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: Clock = Date.now,
  ) {}

  /** The value of `key`, unless missing or expired. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores `value` until `expiresAt` (ms since the epoch); a time already past stores nothing. */
  set(key: string, value: V, expiresAt: number): void {
    if (expiresAt <= this.now()) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }
}
