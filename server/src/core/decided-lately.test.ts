import { describe, expect, it } from 'vitest';
import { DecidedLately } from './decided-lately.js';

describe('DecidedLately', () => {
  it('gives back what was decided for a key, and nothing for another', () => {
    const decided = new DecidedLately<boolean>(4);
    decided.set('a', false);
    expect([decided.get('a'), decided.get('b')]).toEqual([false, undefined]);
  });

  it('never holds more than its bound, however many distinct keys a client sends', () => {
    const decided = new DecidedLately<number>(64);
    for (let i = 0; i < 10_000; i++) {
      decided.set(`hostile ${i}`, i);
      expect(decided.size).toBeLessThanOrEqual(64);
    }
    // The last key is still there; one from long ago is forgotten and would be decided again.
    expect([decided.get('hostile 9999'), decided.get('hostile 0')]).toEqual([9999, undefined]);
  });

  it('replaces the value of a key already held without forgetting the others', () => {
    const decided = new DecidedLately<string>(2);
    decided.set('a', 'one');
    decided.set('b', 'other');
    decided.set('a', 'two');
    expect([decided.get('a'), decided.get('b'), decided.size]).toEqual(['two', 'other', 2]);
  });
});
