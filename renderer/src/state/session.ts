import { ExternalStore } from '../base/external-store.js';

/**
 * Values views keep while they are not shown (only the active panel of a region is mounted), for as long
 * as the workbench runs. A change is announced to every view that shows the value: a view mounted again
 * while a request it started was in flight (a query run, then the panel hidden and shown) sees the answer
 * the earlier instance received. Unlike the other stores, the values are one Map changed in place (each
 * view reads its own key, with {@link has} and {@link get}), so `snapshot()` is that same Map every time
 * and says nothing of changes; {@link set} tells the subscribers itself.
 */
export class SessionStore extends ExternalStore<ReadonlyMap<string, unknown>> {
  private readonly values: Map<string, unknown>;

  constructor() {
    const values = new Map<string, unknown>();
    super(values);
    this.values = values;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  get(key: string): unknown {
    return this.values.get(key);
  }

  set(key: string, value: unknown): void {
    this.values.set(key, value);
    this.notify();
  }
}
