import { describe, expect, it } from 'vitest';
import { orderedParts } from './ordered-parts.js';

/** A part that ends when `finish` is called or its stop signal aborts (rejecting with the signal's reason). */
function controlledParts() {
  const started: number[] = [];
  const finishers = new Map<number, (error?: Error) => void>();
  const stoppedBy = new Map<number, AbortSignal>();
  let running = 0;
  let mostRunning = 0;
  const run = (index: number, stop: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      started.push(index);
      stoppedBy.set(index, stop);
      running++;
      mostRunning = Math.max(mostRunning, running);
      let ended = false;
      const end = (error?: Error) => {
        if (ended) return;
        ended = true;
        running--;
        if (error) reject(error);
        else resolve();
      };
      finishers.set(index, end);
      stop.addEventListener('abort', () => end(stop.reason as Error), { once: true });
    });
  const finish = (index: number, error?: Error) => finishers.get(index)!(error);
  return { run, finish, started, stoppedBy, mostRunning: () => mostRunning, running: () => running };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('orderedParts', () => {
  it('runs at most `lanes` parts at once and yields them in order, those ready together at once', async () => {
    const parts = controlledParts();
    const iteration = orderedParts(5, 2, new AbortController().signal, parts.run);
    const first = iteration.next();
    await turn();
    expect(parts.started).toEqual([0, 1]);
    parts.finish(1);
    await turn();
    expect(parts.started).toEqual([0, 1, 2]);
    parts.finish(2);
    await turn();
    parts.finish(0);
    expect((await first).value).toEqual([0, 1, 2]);
    const second = iteration.next();
    await turn();
    parts.finish(3);
    expect((await second).value).toEqual([3]);
    const third = iteration.next();
    await turn();
    parts.finish(4);
    expect((await third).value).toEqual([4]);
    expect((await iteration.next()).done).toBe(true);
    expect(parts.mostRunning()).toBe(2);
  });

  it('throws the first failure at the first part not done, once every other part has stopped', async () => {
    const parts = controlledParts();
    const iteration = orderedParts(4, 2, new AbortController().signal, parts.run);
    const first = iteration.next();
    await turn();
    parts.finish(0);
    expect((await first).value).toEqual([0]);
    const second = iteration.next();
    await turn();
    parts.finish(2, new Error('source gone'));
    await expect(second).rejects.toThrow('source gone');
    expect(parts.stoppedBy.get(1)!.aborted).toBe(true);
    expect(parts.running()).toBe(0);
    expect(parts.started).toEqual([0, 1, 2]);
  });

  it('stops the running parts, and starts no more, when the reader ends early', async () => {
    const parts = controlledParts();
    const iteration = orderedParts(6, 3, new AbortController().signal, parts.run);
    const first = iteration.next();
    await turn();
    parts.finish(0);
    expect((await first).value).toEqual([0]);
    await iteration.return(undefined);
    expect(parts.running()).toBe(0);
    expect(parts.stoppedBy.get(1)!.aborted).toBe(true);
    expect(parts.started).toEqual([0, 1, 2, 3]);
  });

  it('fails with the reason of the outer signal when it aborts', async () => {
    const parts = controlledParts();
    const outer = new AbortController();
    const iteration = orderedParts(3, 1, outer.signal, parts.run);
    const first = iteration.next();
    await turn();
    outer.abort(new Error('deadline passed'));
    await expect(first).rejects.toThrow('deadline passed');
    expect(parts.started).toEqual([0]);
  });
});
