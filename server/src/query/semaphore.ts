/** Bounds how many queries run at once; the others wait in order, and may give up while waiting. */
export class Semaphore {
  private running = 0;
  private readonly waiting: {
    resolve: () => void;
    reject: (reason: unknown) => void;
    signal?: AbortSignal;
    onAbort: () => void;
  }[] = [];

  constructor(private readonly capacity: number) {}

  /** How many slots are taken now. */
  get taken(): number {
    return this.running;
  }

  /** Resolves with a release function once a slot is free; rejects with the signal's reason if aborted first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.capacity) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        resolve: () => resolve(this.releaser()),
        reject,
        signal,
        onAbort: () => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        next.signal?.removeEventListener('abort', next.onAbort);
        next.resolve();
      } else this.running--;
    };
  }
}

/** The DuckDB threads of a query starting while `running` queries hold slots (itself included): an equal share of
 * `threads`, at least one. */
export function threadShare(threads: number, running: number): number {
  return Math.max(1, Math.floor(threads / Math.max(1, running)));
}
