import { describe, expect, it } from 'vitest';
import { isThenable, LazyAbortSignal, settleWithin, withTimeout } from './timeout.js';

const never = new Promise<never>(() => undefined);

describe('settleWithin', () => {
  it('settles like the promise when it is in time', async () => {
    await expect(settleWithin(Promise.resolve(7), 1000, () => new Error('late'))).resolves.toBe(7);
    await expect(settleWithin(Promise.reject(new Error('own')), 1000, () => new Error('late'))).rejects.toThrow('own');
  });

  it('rejects with the timeout error when the promise does not settle in time', async () => {
    await expect(settleWithin(never, 10, () => new Error('late'))).rejects.toThrow('late');
  });

  it('has rejected before work that resolves on abort could answer', async () => {
    const abort = new LazyAbortSignal();
    const work = new Promise((resolve) => abort.signal.addEventListener('abort', () => resolve('aborted answer')));
    let timeout: Error | undefined;
    const outcome = settleWithin(work, 10, () => (timeout = new Error('late'))).catch((error: unknown) => {
      if (timeout !== undefined && error === timeout) abort.abort(timeout);
      throw error;
    });
    await expect(outcome).rejects.toThrow('late');
    await expect(work).resolves.toBe('aborted answer');
  });
});

describe('withTimeout', () => {
  it('runs the function, and turns a synchronous throw into a rejection', async () => {
    await expect(withTimeout(() => 'done', 1000, () => new Error('late'))).resolves.toBe('done');
    await expect(
      withTimeout(() => {
        throw new Error('boom');
      }, 1000, () => new Error('late')),
    ).rejects.toThrow('boom');
    await expect(withTimeout(() => never, 10, () => new Error('late'))).rejects.toThrow('late');
  });
});

describe('LazyAbortSignal', () => {
  it('aborts a signal that was read before, with the first reason', () => {
    const lazy = new LazyAbortSignal();
    const signal = lazy.signal;
    expect(signal.aborted).toBe(false);
    lazy.abort(new Error('first'));
    lazy.abort(new Error('second'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('first');
    expect(lazy.signal).toBe(signal);
  });

  it('hands out an aborted signal when it is first read after the abort', () => {
    const lazy = new LazyAbortSignal();
    lazy.abort(new Error('gone'));
    expect(lazy.signal.aborted).toBe(true);
    expect((lazy.signal.reason as Error).message).toBe('gone');
  });
});

describe('isThenable', () => {
  it('recognises promises and other thenables, and nothing else', () => {
    expect(isThenable(Promise.resolve())).toBe(true);
    expect(isThenable({ then: () => undefined })).toBe(true);
    expect(isThenable(Object.assign(() => undefined, { then: () => undefined }))).toBe(true);
    for (const value of [undefined, null, 0, 'then', { then: 1 }, [], () => undefined]) expect(isThenable(value)).toBe(false);
  });
});
