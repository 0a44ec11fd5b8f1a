import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Gateway } from './gateway.js';
import { ReloadFollower } from './reload-follower.js';

/** Reports, for each reload, its number once `delays[n]` ms have passed. */
class Counter extends ReloadFollower<number> {
  private reloads = 0;
  constructor(
    gateway: Gateway,
    private readonly delays: number[],
  ) {
    super(gateway);
  }
  protected followReload(): void {
    const n = this.reloads++;
    this.queue(async () => {
      await new Promise((resolve) => setTimeout(resolve, this.delays[n] ?? 0));
      this.emit(n);
    });
  }
}

describe('ReloadFollower', () => {
  it('does the work of each reload after the work of the one before, and settles after the last', async () => {
    const gateway = new EventEmitter();
    const follower = new Counter(gateway as unknown as Gateway, [40, 0, 10]);
    const seen: number[] = [];
    const unsubscribe = follower.subscribe((n) => seen.push(n));
    for (let i = 0; i < 3; i++) gateway.emit('reload');
    await follower.settled();
    // The first reload's slow work does not let the quicker ones overtake it.
    expect(seen).toEqual([0, 1, 2]);

    unsubscribe();
    gateway.emit('reload');
    await follower.settled();
    expect(seen).toEqual([0, 1, 2]);
  });

  it('follows no reload once closed', async () => {
    const gateway = new EventEmitter();
    const follower = new Counter(gateway as unknown as Gateway, []);
    const seen: number[] = [];
    follower.subscribe((n) => seen.push(n));
    follower.close();
    expect(gateway.listenerCount('reload')).toBe(0);
    gateway.emit('reload');
    await follower.settled();
    expect(seen).toEqual([]);
  });
});
