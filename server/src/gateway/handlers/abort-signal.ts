/** True for a promise or any other thenable. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * An abort signal made only when someone asks for it: most requests finish without anyone reading it,
 * and an AbortController per request is a measurable share of a fast route's cost.
 */
export class LazyAbortSignal {
  private controller?: AbortController;
  private reason?: Error;

  /** The signal; aborted already when {@link abort} ran before it was first read. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts the signal with `reason`, now or when it is first read. */
  abort(reason: Error): void {
    this.reason ??= reason;
    this.controller?.abort(reason);
  }
}
