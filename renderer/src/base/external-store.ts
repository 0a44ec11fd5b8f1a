/**
 * What every renderer store shares for React's useSyncExternalStore: a state that is replaced (never
 * mutated) on change, the subscribers, and telling them. A store extends it, keeps its own methods that
 * compute the next state, and hands that state to {@link replaceState}.
 */
export class ExternalStore<S> {
  /** The functions React (or anything else) gave to {@link subscribe}, each called once per change. */
  private readonly listeners = new Set<() => void>();

  /** The state {@link snapshot} returns: the same value until the next {@link replaceState}. */
  private current: S;

  /** Starts with `initial` as the snapshot; subscribers are told only of later changes. */
  constructor(initial: S) {
    this.current = initial;
  }

  /**
   * Calls `listener` after each change; returns the function that stops it. An arrow function, so that it
   * can be passed unbound to useSyncExternalStore.
   */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current state, the same object between changes (React compares it by identity). Unbound, like subscribe. */
  readonly snapshot = (): S => this.current;

  /** The current state, for the store's own methods to compute the next one from. */
  protected get state(): S {
    return this.current;
  }

  /**
   * Makes `state` the current one and tells the subscribers, unless `notify` is false: a change that is
   * one step of several (a replay applied silently) is then shown by a later {@link notify}.
   */
  protected replaceState(state: S, notify = true): void {
    this.current = state;
    if (notify) this.notify();
  }

  /** Tells the subscribers that the state changed (after silent replacements, or a change made in place). */
  protected notify(): void {
    for (const listener of this.listeners) listener();
  }
}
