import { randomBytes } from 'node:crypto';
import type { WorkbenchEvent } from '../contract/index.js';

/** One event as it goes on the wire; `data` is serialised once, on first use. */
export interface HubEvent {
  id: number;
  type: WorkbenchEvent['type'];
  /** When it was published, in `performance.now()` milliseconds. */
  at: number;
  data(): string;
}

export type Subscriber = (event: HubEvent) => void;

/**
 * Fans workbench events (reloads, diagnostics, log lines, requests) out to the open event streams and
 * keeps the most recent ones, so a client that connects, or reconnects with `Last-Event-ID`, first
 * gets what it missed. Producers pass a function that builds the event, which runs only when the
 * event is kept or sent: with nobody listening, publishing costs next to nothing.
 */
export class EventHub {
  /**
   * Names this hub (one per server start). Event ids on the wire are `<instance>:<n>`, so a client that
   * reconnects to a restarted server is not taken for one that saw the new server's first events.
   */
  readonly instance = randomBytes(6).toString('hex');
  private nextId = 1;
  private readonly recent: HubEvent[] = [];
  private readonly subscribers = new Set<Subscriber>();

  constructor(private readonly capacity = 500) {}

  /** True while at least one event stream is open. */
  get hasSubscribers(): boolean {
    return this.subscribers.size > 0;
  }

  /** Publishes an event built by `build` (called at most once, lazily). */
  publish<T extends WorkbenchEvent['type']>(type: T, build: () => Extract<WorkbenchEvent, { type: T }>['data']): void {
    let serialised: string | undefined;
    const event: HubEvent = {
      id: this.nextId++,
      type,
      at: performance.now(),
      data: () => (serialised ??= JSON.stringify(build())),
    };
    this.recent.push(event);
    if (this.recent.length > this.capacity) this.recent.shift();
    for (const subscriber of this.subscribers) subscriber(event);
  }

  /** Kept events with an id above `afterId`, oldest first. */
  since(afterId = 0): HubEvent[] {
    return this.recent.filter((event) => event.id > afterId);
  }

  /** Adds a subscriber; returns the function that removes it. */
  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }
}
