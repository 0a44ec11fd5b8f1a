import { useEffect, useState } from 'react';

const prefix = 'adaptive-workbench:';

/** Reads a remembered value, falling back when it is missing or unreadable (an older layout, private mode). */
export function loadPersisted<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(prefix + key);
    if (raw === null) return fallback;
    const value = JSON.parse(raw) as unknown;
    return value !== null && typeof value === typeof fallback ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

/** Remembers a value across reloads and restarts of the workbench (localStorage). */
export function savePersisted(key: string, value: unknown): void {
  try {
    localStorage.setItem(prefix + key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the layout is simply not remembered.
  }
}

/** `useState` whose value is remembered under `key`. Objects are merged over `initial`, so new fields get defaults. */
export function usePersistedState<T>(key: string, initial: T): [T, (value: T | ((previous: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => {
    const stored = loadPersisted(key, initial);
    return typeof initial === 'object' && initial !== null && !Array.isArray(initial)
      ? { ...initial, ...stored }
      : stored;
  });
  useEffect(() => savePersisted(key, value), [key, value]);
  return [value, setValue];
}
