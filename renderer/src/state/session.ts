/**
 * Values views keep while they are not shown (only the active panel of a region is mounted), for as long
 * as the workbench runs. A change is announced to every view that shows the value: a view mounted again
 * while a request it started was in flight (a query run, then the panel hidden and shown) sees the answer
 * the earlier instance received.
 */
export class SessionStore {
  private readonly values = new Map<string, unknown>();
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  has(key: string): boolean {
    return this.values.has(key);
  }

  get(key: string): unknown {
    return this.values.get(key);
  }

  set(key: string, value: unknown): void {
    this.values.set(key, value);
    for (const listener of this.listeners) listener();
  }
}
