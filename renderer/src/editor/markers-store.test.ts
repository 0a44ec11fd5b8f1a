import { describe, expect, it } from 'vitest';
import { MarkersStore, type EditorMarker } from './markers-store.js';

const marker = (path: string, message: string): EditorMarker => ({
  path,
  severity: 'error',
  message,
  line: 1,
  column: 1,
  source: 'yaml',
});

describe('MarkersStore', () => {
  it('starts empty and keeps markers by file, telling subscribers of each change', () => {
    const store = new MarkersStore();
    let calls = 0;
    store.subscribe(() => calls++);
    expect(store.snapshot()).toEqual({});

    store.set('a.yaml', [marker('a.yaml', 'bad')]);
    store.set('b.ts', [marker('b.ts', 'worse'), marker('b.ts', 'worst')]);
    expect(Object.keys(store.snapshot())).toEqual(['a.yaml', 'b.ts']);
    expect(store.snapshot()['b.ts']).toHaveLength(2);
    expect(calls).toBe(2);
  });

  it('replaces the state on change, leaving earlier snapshots as they were', () => {
    const store = new MarkersStore();
    store.set('a.yaml', [marker('a.yaml', 'one')]);
    const before = store.snapshot();
    store.set('a.yaml', [marker('a.yaml', 'two')]);
    expect(store.snapshot()).not.toBe(before);
    expect(before['a.yaml'][0].message).toBe('one');
    expect(store.snapshot()['a.yaml'][0].message).toBe('two');
  });

  it('drops a file whose markers are cleared, and clearing an unknown file changes nothing visible', () => {
    const store = new MarkersStore();
    store.set('a.yaml', [marker('a.yaml', 'x')]);
    store.set('a.yaml', []);
    expect(store.snapshot()).toEqual({});
    store.set('never.yaml', []);
    expect(store.snapshot()).toEqual({});
  });

  it('stops telling an unsubscribed listener', () => {
    const store = new MarkersStore();
    let calls = 0;
    const stop = store.subscribe(() => calls++);
    store.set('a', [marker('a', 'x')]);
    stop();
    store.set('a', []);
    expect(calls).toBe(1);
  });
});
