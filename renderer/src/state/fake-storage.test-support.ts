import { vi } from 'vitest';

/**
 * Stubs a Storage-like localStorage backed by the returned map (Node has none), so tests of what the
 * renderer remembers see what a browser gives it. Undo with `vi.unstubAllGlobals()`.
 */
export function fakeStorage(): Map<string, string> {
  const items = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  });
  return items;
}
