import { setMaxListeners } from 'node:events';
import { QueryCancelled, QueryTimeout } from '../core/domain-errors.js';

/** The longest a connection attempt may take however much time is left: a source that takes longer is down. */
export const maxConnectMs = 5000;

/**
 * The one deadline of a query (or of a table listing, or a source's health check): every wait it causes,
 * from connecting to a source to reading its last page, is bounded by it. It passes when its time is up
 * (the signal aborts with {@link QueryTimeout}) or when the caller cancels (with the caller's reason).
 * Connectors bound each wait with {@link Deadline.bound} and destroy their socket when it passes, so a
 * source that accepts connections and never answers costs a query its own time limit and nothing more.
 */
export class Deadline {
  private constructor(
    /** Aborts when the deadline passes; its reason is what the query answers with. */
    readonly signal: AbortSignal,
    /** `performance.now()` at which the time is up; Infinity when only a signal bounds the waits. */
    private readonly endsAt: number,
    private readonly detach: () => void,
  ) {}

  /**
   * A deadline `timeoutMs` from now that also passes when `cancel` aborts (with `cancel`'s reason,
   * {@link QueryCancelled} when it gives none). Call {@link dispose} when the work is done.
   */
  static after(timeoutMs: number, cancel?: AbortSignal): Deadline {
    const controller = new AbortController();
    // Every wait of the query listens on it at once (a scan per table, each page, each pooled connection):
    // many listeners are its normal state, not a leak.
    setMaxListeners(0, controller.signal);
    const timer = setTimeout(() => controller.abort(new QueryTimeout(timeoutMs)), timeoutMs);
    // `abort()` without a reason gives a DOMException AbortError: that means "cancelled" too.
    const givenReason = () =>
      cancel?.reason instanceof DOMException && cancel.reason.name === 'AbortError' ? undefined : cancel?.reason;
    const onCancel = () => controller.abort(givenReason() ?? new QueryCancelled());
    if (cancel?.aborted) onCancel();
    cancel?.addEventListener('abort', onCancel, { once: true });
    return new Deadline(controller.signal, performance.now() + timeoutMs, () => {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    });
  }

  /** A deadline that passes when `signal` aborts, for callers that own the timer (health checks). */
  static of(signal: AbortSignal): Deadline {
    return new Deadline(signal, Infinity, () => undefined);
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** Milliseconds left (0 once passed; Infinity when only a signal bounds the waits). */
  remainingMs(): number {
    return this.expired ? 0 : Math.max(0, this.endsAt - performance.now());
  }

  /**
   * A client library's own connect timeout: the time left, at most {@link maxConnectMs}, so a library
   * timer never outlives the deadline. At least 1 ms (0 means "no timeout" to most libraries).
   */
  connectTimeoutMs(): number {
    return Math.max(1, Math.ceil(Math.min(maxConnectMs, this.remainingMs())));
  }

  /** Throws the deadline's reason once it has passed. */
  throwIfExpired(): void {
    if (this.expired) throw this.signal.reason;
  }

  /**
   * Waits for `work`, but no longer than the deadline: when it passes first, `cut` is called (to destroy
   * the socket or client the work waits on) and the promise rejects at once with the deadline's reason.
   * A value that arrives after that is handed to `late` (to close a connection nobody will use).
   */
  bound<T>(work: Promise<T>, cut?: () => void, late?: (value: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onExpired = () => {
        cut?.();
        reject(this.signal.reason);
      };
      if (this.expired) onExpired();
      else this.signal.addEventListener('abort', onExpired, { once: true });
      work.then(
        (value) => {
          this.signal.removeEventListener('abort', onExpired);
          if (this.expired) late?.(value);
          else resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener('abort', onExpired);
          // After the deadline the work's own failure (the cut socket) is not the answer.
          reject(this.expired ? this.signal.reason : error);
        },
      );
    });
  }

  /** Stops the timer and lets go of the caller's signal; the deadline no longer passes by itself. */
  dispose(): void {
    this.detach();
  }
}

/** Runs `work` under a fresh deadline of `timeoutMs` (listing or describing a source's tables outside a query). */
export async function withDeadline<T>(timeoutMs: number, work: (deadline: Deadline) => Promise<T>): Promise<T> {
  const deadline = Deadline.after(timeoutMs);
  try {
    return await work(deadline);
  } finally {
    deadline.dispose();
  }
}
