import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Drafts } from './drafts.js';
import { fakeStorage } from './fake-storage.test-support.js';

const stored = (items: Map<string, string>, workspace: string): unknown =>
  JSON.parse(items.get(`adaptive-workbench:drafts:${workspace}`) ?? 'null');

describe('Drafts', () => {
  let items: Map<string, string>;
  beforeEach(() => {
    items = fakeStorage();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('restores the drafts remembered for the workspace', async () => {
    items.set(
      'adaptive-workbench:drafts:shop',
      JSON.stringify({ 'specs/a.yaml': { text: 'a: 1', baseVersion: 'v1' } }),
    );
    const drafts = new Drafts(Promise.resolve('shop'));
    await drafts.ready;
    expect(drafts.paths()).toEqual(['specs/a.yaml']);
    expect(drafts.get('specs/a.yaml')).toEqual({ text: 'a: 1', baseVersion: 'v1' });
  });

  it('batches writes into one, after the delay, per workspace key', async () => {
    const drafts = new Drafts(Promise.resolve('shop'));
    await drafts.ready;
    drafts.put('a.ts', { text: 'one' });
    drafts.put('b.ts', { text: 'two ✓' });
    expect(stored(items, 'shop')).toBeNull();
    vi.advanceTimersByTime(300);
    expect(stored(items, 'shop')).toEqual({ 'a.ts': { text: 'one' }, 'b.ts': { text: 'two ✓' } });
  });

  it('flush writes at once; remove drops a draft and an unknown path changes nothing', async () => {
    const drafts = new Drafts(Promise.resolve('w'));
    await drafts.ready;
    drafts.put('a.ts', { text: 'x' });
    drafts.flush();
    expect(stored(items, 'w')).toEqual({ 'a.ts': { text: 'x' } });
    drafts.remove('missing.ts');
    expect(vi.getTimerCount()).toBe(0);
    drafts.remove('a.ts');
    drafts.flush();
    expect(stored(items, 'w')).toEqual({});
    expect(drafts.get('a.ts')).toBeUndefined();
  });

  it('keeps drafts put before the workspace is known, over the stored ones', async () => {
    items.set('adaptive-workbench:drafts:w', JSON.stringify({ 'a.ts': { text: 'old' }, 'b.ts': { text: 'kept' } }));
    let resolve!: (name: string) => void;
    const drafts = new Drafts(new Promise((r) => (resolve = r)));
    drafts.put('a.ts', { text: 'new' });
    drafts.flush(); // no key yet: nothing is written
    expect(stored(items, 'w')).toEqual({ 'a.ts': { text: 'old' }, 'b.ts': { text: 'kept' } });
    resolve('w');
    await drafts.ready;
    expect(drafts.get('a.ts')?.text).toBe('new');
    expect(drafts.get('b.ts')?.text).toBe('kept');
  });

  it('ignores a malformed stored draft and a failed workspace', async () => {
    items.set('adaptive-workbench:drafts:w', JSON.stringify({ 'a.ts': { text: 5 }, 'b.ts': null }));
    const drafts = new Drafts(Promise.resolve('w'));
    await drafts.ready;
    expect(drafts.get('a.ts')).toBeUndefined();
    expect(drafts.get('b.ts')).toBeUndefined();

    const failed = new Drafts(Promise.reject(new Error('offline')));
    await expect(failed.ready).resolves.toBeUndefined();
    failed.put('c.ts', { text: 'c' });
    failed.flush();
    expect([...items.keys()]).toEqual(['adaptive-workbench:drafts:w']);
  });
});
