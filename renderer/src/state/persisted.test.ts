import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStorage } from './fake-storage.test-support.js';
import { loadPersisted, savePersisted } from './persisted.js';

describe('persisted values', () => {
  let items: Map<string, string>;
  beforeEach(() => {
    items = fakeStorage();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('round-trips a value under the workbench prefix', () => {
    savePersisted('layout', { width: 320, names: ['ä', '日本'] });
    expect([...items.keys()]).toEqual(['adaptive-workbench:layout']);
    expect(loadPersisted('layout', { width: 0, names: [] as string[] })).toEqual({ width: 320, names: ['ä', '日本'] });
  });

  it('falls back when the key is missing', () => {
    expect(loadPersisted('nothing', 42)).toBe(42);
  });

  it('falls back on malformed JSON, null, and a value of another type', () => {
    items.set('adaptive-workbench:broken', '{not json');
    items.set('adaptive-workbench:null', 'null');
    items.set('adaptive-workbench:text', '"wide"');
    expect(loadPersisted('broken', 'fallback')).toBe('fallback');
    expect(loadPersisted('null', { a: 1 })).toEqual({ a: 1 });
    expect(loadPersisted('text', 7)).toBe(7);
  });

  it('falls back when storage throws on read (private mode), and swallows a failed write', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    expect(loadPersisted('any', 'fallback')).toBe('fallback');
    expect(() => savePersisted('any', 'x'.repeat(100_000))).not.toThrow();
  });

  it('falls back when there is no storage at all', () => {
    vi.stubGlobal('localStorage', undefined);
    expect(loadPersisted('any', [1])).toEqual([1]);
    expect(() => savePersisted('any', 1)).not.toThrow();
  });
});
