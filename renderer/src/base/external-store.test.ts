import { describe, expect, it } from 'vitest';
import { ExternalStore } from './external-store.js';

/** A store with a counter, to reach the protected members the way a real store does. */
class CounterStore extends ExternalStore<{ count: number }> {
  constructor() {
    super({ count: 0 });
  }

  add(step = 1, notify = true): void {
    this.replaceState({ count: this.state.count + step }, notify);
  }

  show(): void {
    this.notify();
  }
}

describe('ExternalStore', () => {
  it('tells every subscriber of a replaced state, each seeing the new snapshot', () => {
    const store = new CounterStore();
    const { subscribe, snapshot } = store;
    const seen: string[] = [];
    subscribe(() => seen.push(`first ${snapshot().count}`));
    subscribe(() => seen.push(`second ${snapshot().count}`));

    store.add();
    store.add(2);

    expect(seen).toEqual(['first 1', 'second 1', 'first 3', 'second 3']);
  });

  it('replaces the state without telling when asked not to, and tells once on notify', () => {
    const store = new CounterStore();
    let calls = 0;
    store.subscribe(() => calls++);

    store.add(1, false);
    store.add(1, false);
    expect(calls).toBe(0);
    expect(store.snapshot()).toEqual({ count: 2 });

    store.show();
    expect(calls).toBe(1);
  });

  it('stops telling a subscriber once it unsubscribed, and only that one', () => {
    const store = new CounterStore();
    const seen: string[] = [];
    const stopFirst = store.subscribe(() => seen.push('first'));
    store.subscribe(() => seen.push('second'));

    stopFirst();
    store.add();

    expect(seen).toEqual(['second']);
  });

  it('returns the same snapshot between changes and a new one after each', () => {
    const store = new CounterStore();
    const before = store.snapshot();
    expect(store.snapshot()).toBe(before);

    store.add();
    const after = store.snapshot();

    expect(after).not.toBe(before);
    expect(store.snapshot()).toBe(after);
    store.show();
    expect(store.snapshot()).toBe(after);
  });
});
