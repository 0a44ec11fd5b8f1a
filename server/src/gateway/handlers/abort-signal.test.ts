import { describe, expect, it } from 'vitest';
import { isThenable, LazyAbortSignal } from './abort-signal.js';

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
    for (const value of [undefined, null, 0, 'then', { then: 1 }, [], () => undefined])
      expect(isThenable(value)).toBe(false);
  });
});
