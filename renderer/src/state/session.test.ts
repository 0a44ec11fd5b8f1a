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
