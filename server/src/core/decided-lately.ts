/**
 * Values decided lately, by a text key, bounded in entries: when full it is emptied rather than grown, so a client
 * sending ever new keys cannot make it hold more than `max` of them, and the few keys real clients send are decided
 * again on their next request.
 */
export class DecidedLately<V> {
  private readonly values = new Map<string, V>();

  constructor(private readonly max: number) {}

  /** The value decided for `key`; `undefined` when it was not, or was forgotten. */
  get(key: string): V | undefined {
    return this.values.get(key);
  }

  /** Remembers `value` for `key`, first forgetting every other one when `max` others are held. */
  set(key: string, value: V): void {
    if (this.values.size >= this.max && !this.values.has(key)) this.values.clear();
    this.values.set(key, value);
  }

  /** How many values are held. */
  get size(): number {
    return this.values.size;
  }
}
