import type { Gateway } from './gateway.js';

/**
 * Background work that follows the gateway's reloads (lint, the breaking-change comparison): each reload's work
 * is queued after the work of the reloads before it, off the request path, and each result goes to the
 * listeners. Subclasses decide in {@link followReload} what a reload needs and {@link queue} it.
 */
export abstract class ReloadFollower<Result> {
  private readonly listeners = new Set<(result: Result) => void>();
  private running: Promise<void> = Promise.resolve();

  constructor(protected readonly gateway: Gateway) {
    gateway.on('reload', this.onReload);
  }

  /** Calls `listener` with each result; returns the unsubscribe function. */
  subscribe(listener: (result: Result) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the work of every reload so far is done. */
  settled(): Promise<void> {
    return this.running;
  }

  /** Stops following reloads. */
  close(): void {
    this.gateway.off('reload', this.onReload);
  }

  /** Runs in the reload's own turn, once the gateway has loaded: what changed is read here, the work queued. */
  protected abstract followReload(): void;

  /** Runs `work` after the work queued before; `work` reports its own failures (the chain must go on). */
  protected queue(work: () => Promise<void>): void {
    this.running = this.running.then(work);
  }

  /** Gives `result` to every listener. */
  protected emit(result: Result): void {
    for (const listener of this.listeners) listener(result);
  }

  private readonly onReload = (): void => this.followReload();
}
