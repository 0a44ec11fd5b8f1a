import { describe, expect, it } from 'vitest';
import { SessionStore } from './session.js';

describe('SessionStore', () => {
  it('keeps values and tells every subscriber of a change, until it unsubscribes', () => {
    const session = new SessionStore();
    const seen: unknown[] = [];
    const first = session.subscribe(() => seen.push(['first', session.get('outcome')]));
    const second = session.subscribe(() => seen.push(['second', session.get('outcome')]));
    expect(session.has('outcome')).toBe(false);

    session.set('outcome', { running: true });
    first();
    session.set('outcome', { rows: 5 });
    second();
    session.set('outcome', {});

    expect(session.get('outcome')).toEqual({});
    expect(seen).toEqual([
      ['first', { running: true }],
      ['second', { running: true }],
      ['second', { rows: 5 }],
    ]);
  });
});

describe('SessionStore values', () => {
  it('tells of every set, the same value included, and keeps undefined as a value that is there', () => {
    const session = new SessionStore();
    let calls = 0;
    session.subscribe(() => calls++);
    const snapshot = session.snapshot();
    session.set('k', undefined);
    session.set('k', undefined);
    expect(calls).toBe(2);
    expect(session.has('k')).toBe(true);
    expect(session.get('missing')).toBeUndefined();
    // One Map changed in place: the snapshot says nothing of changes.
    expect(session.snapshot()).toBe(snapshot);
  });
});
